import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { loginMachine, type LoginResult, type ResendInput, type SecondFactorResult, type StartAuthorizationInput } from '../../machines/login.machine';
import { LoginScreen } from '../../src/features/account/login/login-screen';
import { renderWithRouter } from './render';

/** ASVS 5.0 6.2.6 / 6.2.7: the password is masked, and paste and password managers work. */
describe('password fields (ASVS 6.2.6, 6.2.7)', () => {
  it('the sign-in password is a masked input for password managers, and pasting into it works', async () => {
    const complete = async (): Promise<SecondFactorResult> => ({ status: 'complete', redirect_to: '/oidc/done' });
    const machine = loginMachine.provide({
      actors: {
        startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => {}),
        submitCredentials: fromPromise(async (): Promise<LoginResult> => ({ status: 'complete', redirect_to: '/oidc/done' })),
        verifyOtp: fromPromise(complete),
        verifySmsCode: fromPromise(complete),
        resendSmsCode: fromPromise<void, ResendInput>(async () => {}),
        verifyRecoveryCode: fromPromise(complete),
      },
      actions: { redirect: () => undefined },
    });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
    renderWithRouter(() => <LoginScreen admin={false} search={{ interaction: 'uid-1' }} loginMachineOverride={machine} />, '/login?interaction=uid-1');
    await screen.findByRole('textbox', { name: /e-mail/i });
    const input = screen.getByLabelText(/^password/i);
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('autocomplete', 'current-password');
    const user = userEvent.setup();
    await user.click(input);
    await user.paste('Pasted-Passw0rd!');
    expect(input).toHaveValue('Pasted-Passw0rd!');
  });
});
