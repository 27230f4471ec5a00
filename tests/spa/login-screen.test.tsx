import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { loginMachine, type LoginResult, type ResendInput, type SecondFactorResult, type StartAuthorizationInput } from '../../machines/login.machine';
import { ApiError } from '../../src/api/errors';
import { LoginScreen } from '../../src/features/account/login/login-screen';
import { readResetToken } from '../../src/features/account/login/login-search';
import { renderWithRouter } from './render';

function fakeLogin(opts: { login: () => Promise<LoginResult>; otp?: () => Promise<SecondFactorResult>; recovery?: () => Promise<SecondFactorResult> }) {
  const redirect = vi.fn();
  const submitCredentials = vi.fn(opts.login);
  const complete = async (): Promise<SecondFactorResult> => ({ status: 'complete', redirect_to: '/oidc/done' });
  const verifyOtp = vi.fn(opts.otp ?? complete);
  const verifyRecoveryCode = vi.fn(opts.recovery ?? complete);
  const machine = loginMachine.provide({
    actors: {
      startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => {}),
      submitCredentials: fromPromise(() => submitCredentials()),
      verifyOtp: fromPromise(() => verifyOtp()),
      verifySmsCode: fromPromise(complete),
      resendSmsCode: fromPromise<void, ResendInput>(async () => {}),
      verifyRecoveryCode: fromPromise(() => verifyRecoveryCode()),
    },
    actions: { redirect: (_, params: { url: string }) => redirect(params.url) },
  });
  return { machine, redirect, submitCredentials, verifyOtp, verifyRecoveryCode };
}

async function renderLogin(machine: ReturnType<typeof fakeLogin>['machine']) {
  // config (SSO providers) answers like a server that is down: the form still works
  vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
  return renderWithRouter(() => <LoginScreen admin={false} search={{ interaction: 'uid-1' }} loginMachineOverride={machine} />, '/login?interaction=uid-1');
}

async function signIn(password = 'Secret-Passw0rd!') {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: /e-mail/i }), 'ada@example.com');
  await user.type(screen.getByLabelText(/^password/i), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('login screen', () => {
  it('shows the credentials form and validates before submitting', async () => {
    const fake = fakeLogin({ login: async () => ({ status: 'complete', redirect_to: '/oidc/x' }) });
    await renderLogin(fake.machine);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('E-mail is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fake.submitCredentials).not.toHaveBeenCalled();
  });

  it('follows redirect_to when the login completes', async () => {
    const fake = fakeLogin({ login: async () => ({ status: 'complete', redirect_to: '/oidc/interaction/uid-1/done' }) });
    await renderLogin(fake.machine);
    await signIn();
    await waitFor(() => expect(fake.redirect).toHaveBeenCalledWith('/oidc/interaction/uid-1/done'));
  });

  it('shows "Given password is invalid" on a 401 and focuses the alert', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'http', status: 401, code: 'invalid_credentials', message: 'x' })) });
    await renderLogin(fake.machine);
    await signIn('wrong');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Given password is invalid');
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('shows the lock with the retry time on 429', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'http', status: 429, code: 'account_locked', message: 'x', retryAfter: 300 })) });
    await renderLogin(fake.machine);
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is locked, try again in 5 minutes');
  });

  it('shows "Error ocurred, please try again" on a network failure', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'network', message: 'offline' })) });
    await renderLogin(fake.machine);
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error ocurred, please try again');
  });

  it('asks for the one-time password, validates it and verifies', async () => {
    let attempts = 0;
    const fake = fakeLogin({
      login: async () => ({ status: 'two_factor_required', method: 'GOOGLE' }),
      otp: async () => {
        attempts += 1;
        if (attempts === 1) throw new ApiError({ kind: 'http', status: 422, code: 'otp_invalid', message: 'x' });
        return { status: 'complete', redirect_to: '/oidc/after-2fa' };
      },
    });
    await renderLogin(fake.machine);
    const user = await signIn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter one time password');

    const first = screen.getAllByRole('textbox')[0]!;
    await user.click(first);
    await user.keyboard('123456');
    expect(await screen.findByRole('alert')).toHaveTextContent('One time password is invalid');
    await waitFor(() => expect(fake.verifyOtp).toHaveBeenCalledTimes(1));

    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.paste('654321');
    if (fake.verifyOtp.mock.calls.length < 2) await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(fake.redirect).toHaveBeenCalledWith('/oidc/after-2fa'));
  });

  it('an old password with 2FA on: after the code the answer is password_expired and the screen goes to /expired-password', async () => {
    const fake = fakeLogin({
      login: async () => ({ status: 'two_factor_required', method: 'GOOGLE' }),
      otp: async () => ({ status: 'password_expired', reset_token: 'reset-after-2fa' }),
    });
    const { router } = await renderLogin(fake.machine);
    const user = await signIn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' })).toBeInTheDocument();
    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.paste('654321');
    if (fake.verifyOtp.mock.calls.length < 1) await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired-password'));
    expect(readResetToken()).toEqual({ token: 'reset-after-2fa', admin: false });
    expect(fake.redirect).not.toHaveBeenCalled();
  });

  it('switches to a recovery code and back', async () => {
    const fake = fakeLogin({
      login: async () => ({ status: 'two_factor_required', method: 'GOOGLE' }),
      recovery: async () => ({ status: 'complete', redirect_to: '/oidc/after-recovery' }),
    });
    await renderLogin(fake.machine);
    const user = await signIn();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Use a recovery code' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a recovery code');
    await user.type(screen.getByRole('textbox', { name: /recovery code/i }), 'abcd-efgh');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(fake.redirect).toHaveBeenCalledWith('/oidc/after-recovery'));
  });

  it('tells SMS users that the code may take up to a minute', async () => {
    const fake = fakeLogin({ login: async () => ({ status: 'two_factor_required', method: 'SMS' }) });
    await renderLogin(fake.machine);
    await signIn();
    expect(await screen.findByText(/It may take up to a minute to arrive/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend available in a minute' })).toBeDisabled();
  });
});
