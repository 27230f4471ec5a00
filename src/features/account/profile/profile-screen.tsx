/**
 * Profile for users (/profile) and admins (/admin/profile): avatar, personal
 * info (name, phone, language), password change with the live policy
 * checklist, and two-factor setup driven by the twoFactorSetup machine.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { passwordSchema } from '../../../../contract/domain/password-policy';
import { apiDelete, apiPatch, apiPost, isApiError } from '../../../api';
import { currentAccountQueryOptions, currentAdminQueryOptions, currentUserQueryOptions, languagesQueryOptions, type AccountKind, type AuthUser } from '../../../api/account';
import { LoadingBar } from '../../../components/loading-bar';
import { PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import * as Field from '../../../components/ui/field';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { toaster } from '../../../components/ui/toast';
import { UserAvatar } from '../../../components/ui/user-avatar';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { activateLocale, FALLBACK_LANGUAGES, languageName } from '../../../lib/i18n';
import { STORAGE_KEYS, writeStorage } from '../../../lib/storage';
import { apiErrorMessage, FormAlert, formStack, mutedText, PasswordChecklist, PasswordField, useFieldError } from '../form-kit';
import { phoneField, requiredString, withPasswordMatch } from '../schemas';
import { TwoFactorSection } from './two-factor-section';

export const profileTitle = msg`Profile`;

export function Section({ id, title, description, children }: { id: string; title: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', boxShadow: 'xs', p: { base: '5', md: '6' } })}>
      <h2 id={id} className={css({ textStyle: 'sectionTitle' })}>
        {title}
      </h2>
      {description ? <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{description}</p> : null}
      <div className={css({ mt: '5' })}>{children}</div>
    </section>
  );
}

export function ProfileScreen({ kind }: { kind: AccountKind }) {
  const userQuery = useQuery({ ...currentUserQueryOptions(), enabled: kind === 'user' });
  const adminQuery = useQuery({ ...currentAdminQueryOptions(), enabled: kind === 'admin' });
  const query = kind === 'admin' ? adminQuery : userQuery;
  if (query.isPending) return <LoadingBar />;
  if (query.isError) {
    return (
      <div className={formStack}>
        <FormAlert>
          <Trans>Error ocurred, please try again</Trans>
        </FormAlert>
        <Button onClick={() => void query.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  const user = query.data.auth_user;
  return (
    <div className={css({ maxWidth: '3xl', mx: kind === 'user' ? 'auto' : '0', width: 'full' })}>
      {/* PageHeading brings its own bottom margin, as on the other admin pages: the gap applies between sections only */}
      <PageHeading>
        <Trans>Profile</Trans>
      </PageHeading>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
        <AvatarSection kind={kind} user={user} />
        <PersonalInfoSection kind={kind} user={user} />
        <ChangePasswordSection kind={kind} sso={user.auth_type === 'SSO'} />
        <TwoFactorSection key={`${String(query.data['2fa'].enabled)}-${user.phone ?? ''}`} kind={kind} phone={user.phone} status={query.data['2fa']} />
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ avatar */

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

function AvatarSection({ kind, user }: { kind: AccountKind; user: AuthUser }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const base = kind === 'admin' ? '/api/admin/avatar' : '/api/user/avatar';
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: currentAccountQueryOptions(kind).queryKey });
  const problemText = (issue: 'format' | 'size') => (issue === 'format' ? t`Choose a .jpg, .jpeg or .png image.` : t`The image must be at most 1200 × 600 pixels.`);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('avatar', file);
      return apiPost<unknown>(base, body);
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
    mutationFn: () => apiDelete<unknown>(base),
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

/* ------------------------------------------------------------ personal info */

const personalSchema = z.object({ first_name: requiredString(), last_name: requiredString(), phone: phoneField, locale: z.string().min(1, 'required') });
type PersonalValues = z.infer<typeof personalSchema>;

function PersonalInfoSection({ kind, user }: { kind: AccountKind; user: AuthUser }) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  const queryClient = useQueryClient();
  const languages = useQuery({ ...languagesQueryOptions(), placeholderData: [...FALLBACK_LANGUAGES] });
  const form = useForm<PersonalValues>({
    resolver: zodResolver(personalSchema),
    defaultValues: { first_name: user.first_name, last_name: user.last_name, phone: user.phone ?? '', locale: user.locale },
  });
  // The header's language picker saves the locale too: follow it (the form stays mounted while data refreshes).
  useEffect(() => {
    if (!form.getFieldState('locale').isDirty) form.resetField('locale', { defaultValue: user.locale });
  }, [form, user.locale]);
  const mutation = useMutation({
    mutationFn: (values: PersonalValues) =>
      apiPatch<{ data: { locale?: string } }>(kind === 'admin' ? '/api/admin' : '/api/user', { ...values, phone: values.phone === '' ? null : values.phone }),
    onSuccess: async (response, values) => {
      const locale = response.data.locale ?? values.locale;
      if (locale !== i18n.locale) {
        await activateLocale(locale);
        writeStorage(STORAGE_KEYS.locale, locale);
      }
      toaster.create({ type: 'success', title: i18n._(msg`Personal information saved`) });
      form.reset(values);
      await queryClient.invalidateQueries({ queryKey: currentAccountQueryOptions(kind).queryKey });
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['first_name', 'last_name', 'phone', 'locale'])) toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });
  const { errors } = form.formState;
  return (
    <Section id="personal-heading" title={<Trans>Personal information</Trans>}>
      <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
        <Field.TextField label={t`E-mail`} value={user.email} readOnly disabled name="email_display" helperText={t`Ask an administrator to change your e-mail address.`} />
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
          <Field.TextField label={t`First name`} autoComplete="given-name" required {...form.register('first_name')} errorText={fieldError(errors.first_name, t`First name`)} />
          <Field.TextField label={t`Last name`} autoComplete="family-name" required {...form.register('last_name')} errorText={fieldError(errors.last_name, t`Last name`)} />
        </div>
        <Field.TextField
          label={t`Phone`}
          type="tel"
          autoComplete="tel"
          placeholder="+4915112345678"
          helperText={t`International format: + followed by digits. Needed for SMS verification.`}
          {...form.register('phone')}
          errorText={fieldError(errors.phone, t`Phone`)}
        />
        <Controller
          control={form.control}
          name="locale"
          render={({ field }) => (
            <SimpleSelect
              label={t`Language`}
              name={field.name}
              options={(languages.data ?? FALLBACK_LANGUAGES).map((code) => ({ value: code, label: languageName(code) }))}
              value={field.value}
              onValueChange={field.onChange}
            />
          )}
        />
        <div>
          <Button type="submit" disabled={mutation.isPending} aria-busy={mutation.isPending}>
            <Trans>Save changes</Trans>
          </Button>
        </div>
      </form>
    </Section>
  );
}

/* ---------------------------------------------------------- change password */

const changePasswordSchema = withPasswordMatch(
  z.object({ current_password: z.string().min(1, 'required'), password: passwordSchema, password_confirmation: z.string().min(1, 'required') }),
).superRefine((v, ctx) => {
  if (v.current_password && v.password && v.current_password === v.password) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'password_same_as_current' });
  }
});
type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

export function ChangePasswordSection({ kind, sso }: { kind: AccountKind; sso?: boolean }) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  const form = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordSchema), mode: 'onTouched', defaultValues: { current_password: '', password: '', password_confirmation: '' } });
  const password = useWatch({ control: form.control, name: 'password' });
  const mutation = useMutation({
    mutationFn: (values: ChangePasswordValues) => apiPost<unknown>(kind === 'admin' ? '/api/admin/change-password' : '/api/user/change-password', values),
    onSuccess: () => {
      toaster.create({ type: 'success', title: i18n._(msg`Password changed`) });
      form.reset();
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['current_password', 'password', 'password_confirmation'])) toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });
  const { errors } = form.formState;
  if (sso) {
    return (
      <Section id="password-heading" title={<Trans>Password</Trans>}>
        <p className={mutedText}>
          <Trans>You sign in through single sign-on, so there is no password to change here.</Trans>
        </p>
      </Section>
    );
  }
  return (
    <Section id="password-heading" title={<Trans>Password and security</Trans>} description={<Trans>Change the password you sign in with.</Trans>}>
      <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
        <PasswordField label={t`Current password`} autoComplete="current-password" required {...form.register('current_password')} errorText={fieldError(errors.current_password, t`Current password`)} />
        <PasswordField label={t`New password`} autoComplete="new-password" required aria-describedby="change-rules" {...form.register('password')} errorText={fieldError(errors.password, t`New password`)} />
        <PasswordChecklist id="change-rules" password={password} />
        <PasswordField
          label={t`Confirm new password`}
          autoComplete="new-password"
          required
          {...form.register('password_confirmation')}
          errorText={fieldError(errors.password_confirmation, t`Password confirmation`)}
        />
        <div>
          <Button type="submit" disabled={mutation.isPending} aria-busy={mutation.isPending}>
            <Trans>Change password</Trans>
          </Button>
        </div>
      </form>
    </Section>
  );
}
