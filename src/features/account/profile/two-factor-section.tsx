import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { css, cx } from 'styled-system/css';
import type { MachineError } from '../../../../machines/errors';
import { createTwoFactorActors, TWO_FACTOR_SCREENS, twoFactorSetupMachine, type TwoFactorSetupMachine } from '../../../../machines/twoFactorSetup.machine';
import { createDisableCodeActors, disableCodeMachine, DISABLE_CODE_SCREENS } from '../../../../machines/disableCode.machine';
import { call } from '../../../api/call';
import { currentAccountQueryOptions, type AccountKind, type TwoFactorStatus } from '../../../api/account';
import { Button } from '../../../components/ui/button';
import { CodeInput } from '../../../components/ui/code-input';
import { toaster } from '../../../components/ui/toaster';
import { swapFocusTarget, useSwapFocus } from '../../../lib/focus-after-swap';
import { inspectOptions } from '../../../lib/inspect';
import { accountErrorText } from '../error-words';
import { FormAlert, formatDuration, formStack, mutedText, PasswordField, usePinTranslations } from '../form-kit';
import { Section } from './section';

/**
 * An SMS asked for too soon (429 `too_many_requests` from /2fa/sms/send or /2fa/sms/resend: one per 30 s, five an
 * hour) is a wait, not a lockout of the account (that one is `account_locked`).
 */
function smsWaitMessage(i18n: I18n, screen: string, error: MachineError | null): string | null {
  if (error?.code !== 'too_many_requests' || (screen !== 'screen:2fa.off' && screen !== 'screen:2fa.sms-code' && screen !== 'screen:2fa-code.ready')) return null;
  if (!error.retryAfter) return i18n._(msg`Please wait before asking for another code.`);
  const time = formatDuration(i18n, error.retryAfter);
  return i18n._(msg`Please wait ${time} before asking for another code.`);
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function CodeForm({ label, busy, error, submitLabel, onSubmit }: { label: string; busy: boolean; error: string | null; submitLabel: string; onSubmit: (code: string) => void }) {
  const { t } = useLingui();
  const errorId = useId();
  const [code, setCode] = useState<string[]>([]);
  const [local, setLocal] = useState<string | null>(null);
  const pinTranslations = usePinTranslations();
  useEffect(() => {
    if (error) setCode([]);
  }, [error]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = code.join('');
    if (!value) return setLocal(t`Please enter one time password`);
    if (!/^\d{6}$/.test(value)) return setLocal(t`One time password is invalid`);
    setLocal(null);
    onSubmit(value);
  };
  const shown = local ?? error;
  return (
    <form noValidate onSubmit={submit} className={formStack}>
      {shown ? <FormAlert id={errorId}>{shown}</FormAlert> : null}
      <CodeInput label={label} name="one_time_password" translations={pinTranslations} value={code} invalid={Boolean(shown)} describedBy={shown ? errorId : undefined} disabled={busy} onValueChange={(d) => setCode(d.value)} />
      <div>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** "Send code by SMS" for turning SMS two-factor off (machines/disableCode.machine.ts). */
function DisableCodeRequest({ phone, disabled }: { phone: string; disabled: boolean }) {
  const { i18n } = useLingui();
  const machine = useMemo(() => disableCodeMachine.provide({ actors: createDisableCodeActors({ call }) }), []);
  const [snapshot, send] = useMachine(machine, { ...inspectOptions(), input: { phone } });
  const screen = DISABLE_CODE_SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:2fa-code.ready';
  const sending = snapshot.hasTag('busy');
  const error = smsWaitMessage(i18n, screen, snapshot.context.error) ?? accountErrorText(i18n, snapshot.context.error);
  return (
    <div data-screen={screen} className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      {error ? <FormAlert focus={false}>{error}</FormAlert> : null}
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
        <Button variant="outline" disabled={sending || disabled} aria-busy={sending} onClick={() => send({ type: 'SEND' })}>
          <Trans>Send code by SMS</Trans>
        </Button>
        <span className={mutedText} role="status">
          {screen === 'screen:2fa-code.sent' ? <Trans>Code sent to {phone}.</Trans> : null} <Trans>It may take up to a minute to arrive.</Trans>
        </span>
      </div>
    </div>
  );
}

/** Two-factor authentication: authenticator app (QR) or SMS, recovery codes, disable. */
export function TwoFactorSection({ kind, phone, status, machineOverride }: { kind: AccountKind; phone: string | null; status: TwoFactorStatus; machineOverride?: TwoFactorSetupMachine }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const real = useMemo(() => twoFactorSetupMachine.provide({ actors: createTwoFactorActors({ call }) }), []);
  const [snapshot, send] = useMachine(machineOverride ?? real, { ...inspectOptions(), input: { enabled: status.enabled, method: status.method, phone } });
  const { context } = snapshot;
  const busy = snapshot.hasTag('loading');
  // the screen shown is the state's one `screen:2fa.*` tag (machines/twoFactorSetup.machine.ts)
  const screen = TWO_FACTOR_SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:2fa.off';
  const error = smsWaitMessage(i18n, screen, context.error) ?? accountErrorText(i18n, context.error);
  const [disableWith, setDisableWith] = useState<'one_time_password' | 'password'>('one_time_password');
  const [password, setPassword] = useState('');

  useEffect(() => {
    send({ type: 'PHONE_UPDATED', phone });
  }, [phone, send]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: currentAccountQueryOptions(kind).queryKey });

  let body;
  if (screen === 'screen:2fa.recovery-codes' && context.recoveryCodes) {
    const codes = context.recoveryCodes;
    const text = codes.join('\n');
    body = (
      <div className={formStack}>
        <div {...swapFocusTarget} className={focusTargetClass}>
          <FormAlert tone="success" focus={false}>
            <Trans>Two-factor authentication is on. Save these recovery codes now: they are shown only once, and each one lets you sign in if you lose your phone.</Trans>
          </FormAlert>
        </div>
        <ul data-testid="recovery-codes" className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)' }, gap: '2', fontFamily: 'mono', fontSize: 'sm', bg: 'bg.subtle', p: '4', borderRadius: 'md' })}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Button
            variant="outline"
            onClick={() => void copy(text).then((ok) => toaster.create({ type: ok ? 'success' : 'error', title: ok ? i18n._(msg`Recovery codes copied`) : i18n._(msg`Copying failed, select the codes instead`) }))}
          >
            <Trans>Copy codes</Trans>
          </Button>
          <a
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`}
            download="recovery-codes.txt"
            className={css({ display: 'inline-flex', alignItems: 'center', height: '10', px: '4', borderWidth: '1px', borderColor: 'border.strong', borderRadius: 'md', fontSize: 'sm', fontWeight: 'medium', _hover: { bg: 'bg.subtle' } })}
          >
            <Trans>Download codes</Trans>
          </a>
          <Button
            onClick={() => {
              send({ type: 'ACKNOWLEDGE' });
              refresh();
            }}
          >
            <Trans>I have saved my codes</Trans>
          </Button>
        </div>
      </div>
    );
  } else if (screen === 'screen:2fa.authenticator' && context.otpauthUrl && context.secret) {
    const secret = context.secret;
    body = (
      <div className={formStack}>
        <ol {...swapFocusTarget} className={cx(focusTargetClass, css({ listStyleType: 'decimal', ps: '5', display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm' }))}>
          <li>
            <Trans>Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</Trans>
          </li>
          <li>
            <Trans>Enter the 6-digit code the app shows to confirm.</Trans>
          </li>
        </ol>
        <div className={css({ display: 'flex', gap: '6', flexWrap: 'wrap', alignItems: 'center' })}>
          <div className={css({ p: '3', bg: 'white', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg' })}>
            <QRCodeSVG value={context.otpauthUrl} size={176} role="img" aria-label={t`QR code for your authenticator app`} />
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minWidth: 0 })}>
            <span className={mutedText}>
              <Trans>Cannot scan? Enter this key in the app:</Trans>
            </span>
            <code data-testid="totp-secret" className={css({ fontFamily: 'mono', fontSize: 'sm', bg: 'bg.subtle', px: '2', py: '1', borderRadius: 'sm', wordBreak: 'break-all' })}>
              {secret}
            </code>
            <div>
              <Button variant="outline" size="sm" onClick={() => void copy(secret).then((ok) => toaster.create({ type: ok ? 'success' : 'error', title: ok ? i18n._(msg`Key copied`) : i18n._(msg`Copying failed, select the key instead`) }))}>
                <Trans>Copy key</Trans>
              </Button>
            </div>
          </div>
        </div>
        <CodeForm label={t`Code from the app`} busy={busy} error={error} submitLabel={t`Turn on`} onSubmit={(code) => send({ type: 'SUBMIT_CODE', code })} />
        <div>
          <Button variant="ghost" disabled={busy} onClick={() => send({ type: 'CANCEL' })}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </div>
    );
  } else if (screen === 'screen:2fa.sms-code') {
    body = (
      <div className={formStack}>
        <p {...swapFocusTarget} className={cx(focusTargetClass, css({ fontSize: 'sm' }))}>
          <Trans>We sent a 6-digit code to {phone}. It may take up to a minute to arrive.</Trans>
        </p>
        <CodeForm label={t`Code from the SMS`} busy={busy} error={error} submitLabel={t`Turn on`} onSubmit={(code) => send({ type: 'SUBMIT_CODE', code })} />
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Button variant="outline" disabled={!snapshot.hasTag('sms:can-resend') || busy} onClick={() => send({ type: 'RESEND_CODE' })}>
            {snapshot.hasTag('sms:can-resend') ? <Trans>Resend code</Trans> : <Trans>Resend available in a minute</Trans>}
          </Button>
          <Button variant="ghost" disabled={busy} onClick={() => send({ type: 'CANCEL' })}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </div>
    );
  } else if (screen === 'screen:2fa.on') {
    body = (
      <div className={formStack}>
        <p {...swapFocusTarget} className={cx(focusTargetClass, css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' }))}>
          <span className={css({ width: '2', height: '2', borderRadius: 'full', bg: 'success.600' })} aria-hidden="true" />
          {context.method === 'SMS' ? <Trans>On — codes by SMS</Trans> : <Trans>On — authenticator app</Trans>}
        </p>
        <form
          noValidate
          className={formStack}
          onSubmit={(event) => {
            event.preventDefault();
            if (disableWith === 'password') send({ type: 'DISABLE', password });
          }}
        >
          <fieldset className={css({ display: 'flex', gap: '4', flexWrap: 'wrap', fontSize: 'sm' })}>
            <legend className={css({ fontWeight: 'medium', mb: '2' })}>
              <Trans>Turn off with</Trans>
            </legend>
            <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <input type="radio" name="disable-with" checked={disableWith === 'one_time_password'} onChange={() => setDisableWith('one_time_password')} />
              <Trans>One time password</Trans>
            </label>
            <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <input type="radio" name="disable-with" checked={disableWith === 'password'} onChange={() => setDisableWith('password')} />
              <Trans>Password</Trans>
            </label>
          </fieldset>
          {disableWith === 'password' ? (
            <>
              {error ? <FormAlert>{error}</FormAlert> : null}
              <PasswordField label={t`Password`} name="disable_password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
              <div>
                <Button type="submit" variant="danger" disabled={busy || !password}>
                  <Trans>Turn off two-factor authentication</Trans>
                </Button>
              </div>
            </>
          ) : null}
        </form>
        {/* SMS codes are sent on request only: without this there is no code to turn SMS two-factor off with */}
        {disableWith === 'one_time_password' && context.method === 'SMS' ? <DisableCodeRequest phone={phone ?? ''} disabled={busy} /> : null}
        {disableWith === 'one_time_password' ? (
          <CodeForm
            label={t`One time password`}
            busy={busy}
            error={error}
            submitLabel={t`Turn off two-factor authentication`}
            onSubmit={(code) => {
              send({ type: 'DISABLE', one_time_password: code });
            }}
          />
        ) : null}
      </div>
    );
  } else {
    body = (
      <div className={formStack}>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' })}>
          <MethodCard title={<Trans>Authenticator app</Trans>} text={<Trans>Codes from an app on your phone. Works offline.</Trans>} action={t`Set up authenticator app`} busy={busy} onClick={() => send({ type: 'CHOOSE_AUTHENTICATOR' })} />
          <MethodCard title={<Trans>SMS</Trans>} text={phone ? <Trans>Codes by text message to {phone}.</Trans> : <Trans>Add a phone number under personal information first.</Trans>} action={t`Set up SMS`} busy={busy} onClick={() => send({ type: 'CHOOSE_SMS' })} />
        </div>
      </div>
    );
  }

  // After disabling, the account data changes too.
  const enabled = context.enabled;
  useEffect(() => {
    if (!enabled && status.enabled) refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled]);

  // each step replaces the one before in place: focus moves to the new step (its first words) and it is announced,
  // back to the section's heading when the choice of method is shown again (src/lib/focus-after-swap.tsx); the profile
  // remounts the section once the account's data says two-factor is on or off (its `key`): focus stays in it then
  const sectionRef = useRef<HTMLElement>(null);
  const { liveRegion } = useSwapFocus(screen, { container: sectionRef, selector: 'h2', remountId: `two-factor-section:${kind}` });

  return (
    <Section ref={sectionRef} id="two-factor-heading" screen={screen} title={<Trans>Two-factor authentication</Trans>} description={<Trans>Protect your account with a second step when you sign in.</Trans>}>
      {liveRegion}
      {body}
    </Section>
  );
}

/** A step's first words take focus when it appears: a ring while they have it, none when clicked. */
const focusTargetClass = css({ outline: 'none', borderRadius: 'sm', _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' } });

function MethodCard({ title, text, action, busy, onClick }: { title: React.ReactNode; text: React.ReactNode; action: string; busy: boolean; onClick: () => void }) {
  return (
    <div className={css({ borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', p: '4', display: 'flex', flexDirection: 'column', gap: '2' })}>
      <h3 className={css({ fontWeight: 'semibold' })}>{title}</h3>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', flex: '1' })}>{text}</p>
      <div>
        <Button variant="outline" disabled={busy} onClick={onClick}>
          {action}
        </Button>
      </div>
    </div>
  );
}

