import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import type { SessionView } from '../../contract/sessions';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { ConfirmDialog } from './ui/confirm-dialog';

const DEVICE = { desktop: msg`Computer`, mobile: msg`Mobile phone`, tablet: msg`Tablet` } as const;

/** "Firefox 133 on Windows", or what is known of it. */
export function useSessionLabel() {
  const { t } = useLingui();
  return (s: Pick<SessionView, 'browser' | 'browser_version' | 'os'>): string => {
    const browser = s.browser ? (s.browser_version ? `${s.browser} ${s.browser_version}` : s.browser) : null;
    const os = s.os;
    if (browser && os) return t`${browser} on ${os}`;
    return browser ?? s.os ?? t`Unknown browser`;
  };
}

export interface SessionListProps {
  sessions: readonly SessionView[];
  /** Ends one session; rejects with the API error. */
  onEnd: (session: SessionView) => Promise<unknown>;
  /** The answer to a failed end, in the reader's words (shown in the dialog). */
  errorMessage: (error: unknown) => string;
  /** Told after a session ended (a toast). */
  onEnded: (label: string) => void;
  /** Whose sessions: the reader's own (this device is marked and cannot be ended here) or another person's. */
  own: boolean;
}

const item = css({ display: 'flex', gap: '4', justifyContent: 'space-between', alignItems: 'flex-start', flexWrap: 'wrap', py: '3', borderTopWidth: '1px', borderColor: 'border.default', _first: { borderTopWidth: '0', pt: '0' } });
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/**
 * The live sessions of an account (contract/sessions.ts): device and browser, address and place, signed in at, last
 * used, the apps, "This device"; "End session" asks first. Used on the profile and on the admin's user page.
 */
export function SessionList({ sessions, onEnd, errorMessage, onEnded, own }: SessionListProps) {
  const { t, i18n } = useLingui();
  const label = useSessionLabel();
  const [ending, setEnding] = useState<SessionView | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const formats = useMemo(() => {
    const locale = i18n.locale || 'en';
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    let regions: Intl.DisplayNames | null = null;
    try {
      regions = new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      regions = null;
    }
    return { dateTime: (iso: string) => dateTime.format(new Date(iso)), region: (code: string) => regions?.of(code) ?? code };
  }, [i18n.locale]);

  if (sessions.length === 0) {
    return (
      <p className={muted}>
        <Trans>No active sessions.</Trans>
      </p>
    );
  }

  const confirm = async () => {
    if (!ending) return;
    setPending(true);
    setError(null);
    try {
      await onEnd(ending);
      onEnded(label(ending));
      setEnding(null);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <ul aria-label={t`Sessions`} className={css({ listStyle: 'none', p: '0', m: '0' })}>
        {sessions.map((s) => {
          const name = label(s);
          const where = [i18n._(DEVICE[s.device_type]), s.ip_address, s.place ? formats.region(s.place) : null].filter((x): x is string => !!x).join(' · ');
          const apps = s.apps.map((a) => a.name ?? (a.client_id === 'admin-console' ? t`Admin console` : a.client_id === 'portal' ? t`Portal` : a.client_id));
          const signedIn = formats.dateTime(s.signed_in_at);
          const lastUsed = formats.dateTime(s.last_used_at);
          return (
            <li key={s.id} className={item} data-session={s.id} data-current={s.current || undefined}>
              <div className={css({ minWidth: '0', display: 'flex', flexDirection: 'column', gap: '1' })}>
                <p className={css({ fontWeight: 'medium', display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
                  <span>{name}</span>
                  {own && s.current ? <Badge tone="info">{t`This device`}</Badge> : null}
                </p>
                <p className={muted}>{where}</p>
                <p className={muted}>
                  <Trans>
                    Signed in {signedIn} · Last used {lastUsed}
                  </Trans>
                </p>
                {apps.length ? (
                  <p className={muted}>
                    <Trans>Apps: {apps.join(', ')}</Trans>
                  </p>
                ) : null}
              </div>
              {own && s.current ? null : (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t`End session: ${name}`}
                  onClick={() => {
                    setError(null);
                    setEnding(s);
                  }}
                >
                  <Trans>End session</Trans>
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => {
          if (!open) setEnding(null);
        }}
        title={t`End this session?`}
        description={ending ? t`${label(ending)} is signed out, in the portal and in the apps it signed in to. It can sign in again with the password.` : ''}
        confirmLabel={t`End session`}
        pending={pending}
        error={error}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
