import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { byKind } from '../../../../contract/profile';
import { currentAccountQueryOptions, type AccountKind, type AuthUser } from '../../../api/account';
import { isApiError } from '../../../api';
import { call, upload as uploadForm } from '../../../api/call';
import { UserAvatar } from '../../../components/ui/user-avatar';
import { Button } from '../../../components/ui/button';
import { toaster } from '../../../components/ui/toaster';
import { apiErrorMessage } from '../error-words';
import { FormAlert, mutedText } from '../form-kit';
import { Section } from './section';

export const AVATAR_MAX = { width: 1200, height: 600 } as const;
const AVATAR_TYPES = ['image/jpeg', 'image/png'];

async function imageSize(file: File): Promise<{ width: number; height: number }> {
  const url = URL.createObjectURL(file);
  try {
    return await new Promise((resolve, reject) => {
      const image = new Image();
      image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
      image.onerror = () => reject(new Error('decode'));
      image.src = url;
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * The server checks the bytes (a GIF named .png decodes in the browser but is refused there): its 422 answers map to
 * the same visible problems as the client checks.
 */
export function avatarProblemFromError(error: unknown): 'format' | 'size' | null {
  if (!isApiError(error) || error.status !== 422) return null;
  const codes = [error.code, ...(error.fields?.avatar ?? [])];
  if (codes.includes('avatar_invalid_type')) return 'format';
  if (codes.includes('avatar_too_large_dimensions')) return 'size';
  return null;
}

/** Client-side avatar checks (docs/SPEC.md §5): .jpg/.jpeg/.png, at most 1200×600. */
export async function checkAvatar(file: File): Promise<'format' | 'size' | null> {
  if (!AVATAR_TYPES.includes(file.type) || !/\.(jpe?g|png)$/i.test(file.name)) return 'format';
  try {
    const { width, height } = await imageSize(file);
    return width > AVATAR_MAX.width || height > AVATAR_MAX.height ? 'size' : null;
  } catch {
    return 'format';
  }
}

export function AvatarSection({ kind, user }: { kind: AccountKind; user: AuthUser }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const endpoints = byKind[kind];
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: currentAccountQueryOptions(kind).queryKey });
  const problemText = (issue: 'format' | 'size') => (issue === 'format' ? t`Choose a .jpg, .jpeg or .png image.` : t`The image must be at most 1200 × 600 pixels.`);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('avatar', file);
      return uploadForm(endpoints.uploadAvatar, body);
    },
    onSuccess: async () => {
      setPreview(null);
      toaster.create({ type: 'success', title: i18n._(msg`Profile picture updated`) });
      await refresh();
    },
    onError: (error) => {
      const issue = avatarProblemFromError(error);
      if (issue) {
        setPreview(null);
        return setProblem(problemText(issue));
      }
      toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });
  const remove = useMutation({
    mutationFn: () => call(endpoints.removeAvatar),
    onSuccess: async () => {
      toaster.create({ type: 'success', title: i18n._(msg`Profile picture removed`) });
      await refresh();
    },
    onError: (error) => toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) }),
  });
  const name = `${user.first_name} ${user.last_name}`.trim();

  const onFile = async (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    const issue = await checkAvatar(file);
    if (issue) return setProblem(problemText(issue));
    setPreview({ file, url: URL.createObjectURL(file) });
  };

  return (
    <Section id="avatar-heading" title={<Trans>Profile picture</Trans>} description={<Trans>A .jpg, .jpeg or .png image of at most 1200 × 600 pixels.</Trans>}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '5', flexWrap: 'wrap' })}>
        <UserAvatar name={name} src={preview?.url ?? user.avatar_url} size="lg" className={css({ width: '20', height: '20', fontSize: 'xl' })} />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <input
            ref={input}
            id="avatar-input"
            type="file"
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            className={css({ srOnly: true })}
            aria-label={t`Choose a profile picture`}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              // the same file can be chosen again after a refusal
              e.currentTarget.value = '';
              void onFile(file);
            }}
          />
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            {preview ? (
              <>
                <Button
                  onClick={() => {
                    setProblem(null);
                    upload.mutate(preview.file);
                  }}
                  disabled={upload.isPending}
                  aria-busy={upload.isPending}
                >
                  <Trans>Save picture</Trans>
                </Button>
                <Button
                  variant="outline"
                  onClick={() => {
                    setPreview(null);
                    setProblem(null);
                  }}
                >
                  <Trans>Cancel</Trans>
                </Button>
              </>
            ) : (
              <>
                <Button variant="outline" onClick={() => input.current?.click()}>
                  <Trans>Upload picture</Trans>
                </Button>
                {user.avatar_url ? (
                  <Button variant="ghost" onClick={() => remove.mutate()} disabled={remove.isPending}>
                    <Trans>Remove</Trans>
                  </Button>
                ) : null}
              </>
            )}
          </div>
          {preview ? (
            <p className={mutedText} role="status">
              <Trans>Preview of {preview.file.name}. Save to use it.</Trans>
            </p>
          ) : null}
          {problem ? <FormAlert>{problem}</FormAlert> : null}
        </div>
      </div>
    </Section>
  );
}
