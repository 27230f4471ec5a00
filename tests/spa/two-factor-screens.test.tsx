/**
 * The two-factor section renders the machine's screen tag on its root (`data-screen`, machines/testing/qa.ts) and
 * follows the tags only: the browser walk (e2e/paths/twoFactorSetup.driver.ts) tells the screens apart by it.
 */
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { twoFactorSetupMachine, type SecretOutput } from '../../machines/twoFactorSetup.machine';
import { TwoFactorSection } from '../../src/features/account/profile/two-factor-section';
import { i18n } from '../../src/lib/i18n';
import { ApiError } from '../../src/api';
import { createQueryClient } from '../../src/lib/query-client';

const never = <T,>() => new Promise<T>(() => {});
const machine = twoFactorSetupMachine.provide({
  actors: {
    createSecret: fromPromise<SecretOutput, void>(async () => ({ secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/IAM:a@example.com?secret=JBSWY3DPEHPK3PXP' })),
    enableAuthenticator: fromPromise<{ recovery_codes: string[] }, { one_time_password: string }>(() => never()),
  },
});

const wrap = (enabled: boolean) =>
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>
        <TwoFactorSection kind="user" phone="+41791234567" status={{ enabled, method: enabled ? 'GOOGLE' : null }} machineOverride={machine} />
      </QueryClientProvider>
    </I18nProvider>,
  );

const shown = () => [...document.querySelectorAll('[data-screen]')].map((el) => el.getAttribute('data-screen'));

describe('two-factor section screens', () => {
  it('shows screen:2fa.off, then screen:2fa.authenticator with the key; Cancel is disabled while a code is checked', async () => {
    wrap(false);
    expect(shown()).toEqual(['screen:2fa.off']);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(shown()).toEqual(['screen:2fa.authenticator']);
    await user.click(screen.getByRole('textbox', { name: /^Digit 1 of 6$/ }));
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(shown()).toEqual(['screen:2fa.authenticator']);
  });

  it('an SMS asked for too soon is a wait, not a locked account', async () => {
    const throttled = twoFactorSetupMachine.provide({
      actors: { sendSmsCode: fromPromise<void, void>(async () => Promise.reject(new ApiError({ kind: 'http', status: 429, code: 'too_many_requests', message: 'x', retryAfter: 25 }))) },
    });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={createQueryClient()}>
          <TwoFactorSection kind="user" phone="+41791234567" status={{ enabled: false, method: null }} machineOverride={throttled} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Set up SMS' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please wait 25 seconds before asking for another code.');
    expect(shown()).toEqual(['screen:2fa.off']);
  });

  it('shows screen:2fa.on when two-factor is on', () => {
    wrap(true);
    expect(shown()).toEqual(['screen:2fa.on']);
  });
});
