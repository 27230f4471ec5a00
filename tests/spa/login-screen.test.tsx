import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { loginMachine, type LoginResult, type NewPasswordInput, type ResendInput, type SecondFactorResult, type StartAuthorizationInput } from '../../machines/login.machine';
import { ApiError } from '../../src/api/errors';
import { LoginScreen } from '../../src/features/account/login/login-screen';
import { renderApp, renderWithRouter } from './render';

function fakeLogin(opts: { login: () => Promise<LoginResult>; otp?: () => Promise<SecondFactorResult>; sms?: () => Promise<SecondFactorResult>; recovery?: () => Promise<SecondFactorResult> }) {
  const redirect = vi.fn();
  const navigate = vi.fn();
  const submitCredentials = vi.fn(opts.login);
  const complete = async (): Promise<SecondFactorResult> => ({ status: 'complete', redirect_to: '/oidc/done' });
  const verifyOtp = vi.fn(opts.otp ?? complete);
  const verifyRecoveryCode = vi.fn(opts.recovery ?? complete);
  const machine = loginMachine.provide({
    actors: {
      startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => {}),
      submitCredentials: fromPromise(() => submitCredentials()),
      verifyOtp: fromPromise(() => verifyOtp()),
      verifySmsCode: fromPromise(opts.sms ?? complete),
      resendSmsCode: fromPromise<void, ResendInput>(async () => {}),
      verifyRecoveryCode: fromPromise(() => verifyRecoveryCode()),
      changeExpiredPassword: fromPromise<void, NewPasswordInput>(async () => {}),
    },
    actions: { redirect: (_, params: { url: string }) => redirect(params.url), navigate: (_, params) => navigate(params) },
  });
  return { machine, redirect, navigate, submitCredentials, verifyOtp, verifyRecoveryCode };
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

  it('says the server cannot be reached on a network failure', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'network', message: 'offline' })) });
    await renderLogin(fake.machine);
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('The server cannot be reached. Check your connection and try again.');
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
    // the wrong code's message is the code field's own error, not a form alert
    const fieldError = await screen.findByText('One time password is invalid');
    expect(fieldError).toHaveAttribute('id', 'one-time-password-error');
    expect(fieldError.closest('[data-screen]')).toHaveAttribute('data-screen', 'screen:login.two-factor-otp');
    expect(screen.queryByTestId('form-alert-error')).toBeNull();
    await waitFor(() => expect(fake.verifyOtp).toHaveBeenCalledTimes(1));

    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.paste('654321');
    if (fake.verifyOtp.mock.calls.length < 2) await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(fake.redirect).toHaveBeenCalledWith('/oidc/after-2fa'));
  });

  it('an old password with 2FA on: after the code the machine navigates to /expired-password with the token (no storage)', async () => {
    const fake = fakeLogin({
      login: async () => ({ status: 'two_factor_required', method: 'GOOGLE' }),
      otp: async () => ({ status: 'password_expired', reset_token: 'reset-after-2fa' }),
    });
    await renderLogin(fake.machine);
    const user = await signIn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' })).toBeInTheDocument();
    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.paste('654321');
    if (fake.verifyOtp.mock.calls.length < 1) await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(fake.navigate).toHaveBeenCalledWith({ to: 'expired-password', admin: false, resetToken: 'reset-after-2fa' }));
    expect(fake.redirect).not.toHaveBeenCalled();
    expect(window.sessionStorage.length).toBe(0);
    expect(window.localStorage.length).toBe(0);
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
    expect(await screen.findByText('Please enter a recovery code')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /recovery code/i })).toHaveAttribute('aria-invalid', 'true');
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

/** A fake API by path for the real login machine of the app's routes (renderApp). */
function fakeApi(routes: Record<string, (body: Record<string, unknown>) => { status: number; body: unknown }>) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const raw = init?.body ?? (input instanceof Request ? await input.text() : undefined);
    const body = typeof raw === 'string' && raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    calls.push({ path: url.pathname, body });
    const route = routes[url.pathname];
    const answer = route ? route(body) : { status: 500, body: { error: { code: 'internal_error', message: 'x' } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('expired password (the whole hand-off on the real routes)', () => {
  it('password_expired → /expired-password with the token in the router state → the change calls /api/reset-password with it; nothing in storage', async () => {
    const calls = fakeApi({
      '/api/login': () => ({ status: 200, body: { data: { status: 'password_expired', reset_token: 'tok-expired-1' } } }),
      '/api/reset-password': () => ({ status: 200, body: { data: { flow: 'cp' } } }),
    });
    const { router } = await renderApp('/login?interaction=uid-1');
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired-password'));
    await waitFor(() => expect(router.state.status).toBe('idle'));
    expect(router.state.location.state.resetToken).toBe('tok-expired-1');
    const root = await screen.findByRole('heading', { level: 1, name: 'Password expired' });
    expect(root.closest('[data-screen]')).toHaveAttribute('data-screen', 'screen:login.expired-password');
    expect(window.sessionStorage.length).toBe(0);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^new password/i), 'Fresh-Passw0rd-2026');
    await user.type(screen.getByLabelText(/^confirm new password/i), 'Fresh-Passw0rd-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Password changed' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 }).closest('[data-screen]')).toHaveAttribute('data-screen', 'screen:login.password-changed');
    expect(calls.find((c) => c.path === '/api/reset-password')?.body).toEqual({ reset_token: 'tok-expired-1', password: 'Fresh-Passw0rd-2026', password_confirmation: 'Fresh-Passw0rd-2026' });
  });

  it('/expired-password opened without a sign-in says the sign-in expired and offers a new one', async () => {
    fakeApi({});
    await renderApp('/expired-password');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Sign-in expired' });
    expect(heading.closest('[data-screen]')).toHaveAttribute('data-screen', 'screen:login.sign-in-expired');
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
  });
});

describe('issue 14: sign-in errors', () => {
  it('a deactivated account (403 account_inactive after its second factor) is told so, with no "try again"', async () => {
    const fake = fakeLogin({
      login: async () => ({ status: 'two_factor_required', method: 'GOOGLE' }),
      otp: async () => Promise.reject(new ApiError({ kind: 'http', status: 403, code: 'account_inactive', message: 'x' })),
    });
    await renderLogin(fake.machine);
    const user = await signIn();
    await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' });
    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.paste('654321');
    if (fake.verifyOtp.mock.calls.length < 1) await user.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your account is deactivated. Please contact your administrator.');
    expect(alert.closest('[data-screen]')).toHaveAttribute('data-screen', 'screen:login.account-inactive');
    expect(document.body).not.toHaveTextContent(/error occurred|try again/i);
    expect(screen.queryByRole('button', { name: /try again/i })).toBeNull();
  });

  it('an expired interaction leads to "Sign-in expired" and a new sign-in, not a generic error', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'http', status: 400, code: 'interaction_expired', message: 'x' })) });
    await renderLogin(fake.machine);
    await signIn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign-in expired' })).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/error occurred/i);
  });

  it('a server field error on the e-mail lands on the e-mail field', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'http', status: 422, code: 'validation_failed', message: 'x', fields: { email: ['email'] } })) });
    await renderLogin(fake.machine);
    await signIn();
    const email = screen.getByRole('textbox', { name: /e-mail/i });
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('must be a valid email')).toBeInTheDocument();
    expect(screen.queryByTestId('form-alert-error')).toBeNull();
  });

  it('a wrong SMS code is said on the code field; the SMS screen is named by its tag', async () => {
    const fake = fakeLogin({
      login: async () => ({ status: 'two_factor_required', method: 'SMS' }),
      sms: async () => Promise.reject(new ApiError({ kind: 'http', status: 422, code: 'otp_invalid', message: 'x', fields: { one_time_password: ['otp_invalid'] } })),
    });
    await renderLogin(fake.machine);
    const user = await signIn();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' });
    expect(heading.closest('[data-screen]')).toHaveAttribute('data-screen', 'screen:login.two-factor-sms');
    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.paste('111111');
    expect(await screen.findByText('One time password is invalid')).toHaveAttribute('id', 'one-time-password-error');
  });

  it('the 2FA challenge has its description right under its heading (one heading block, no form gap between)', async () => {
    const fake = fakeLogin({ login: async () => ({ status: 'two_factor_required', method: 'GOOGLE' }) });
    await renderLogin(fake.machine);
    await signIn();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' });
    // before: the h1 sat alone in PageHeading's block (margin below) and the text was the next item of the form's
    // stack (its gap on top of that margin): a blank gap. Now the text follows the h1 inside the heading block.
    expect(heading.nextElementSibling).toHaveTextContent('Open your authenticator app and enter the 6-digit code for this account.');
    expect(heading.parentElement?.tagName).toBe('HEADER');
  });
});

describe('issue 14: an SSO user trying a password', () => {
  it('gets a hint to use the provider with the wrong-password message when SSO providers exist (said to every wrong password: no enumeration)', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'http', status: 401, code: 'invalid_credentials', message: 'x' })) });
    const config = { issuer: 'http://localhost/oidc', authorization_endpoint: 'http://localhost/oidc/auth', token_endpoint: 'http://localhost/oidc/token', end_session_endpoint: 'http://localhost/oidc/session/end', scope: 'openid', clients: { portal: 'portal', admin: 'admin-console' }, sso_providers: [{ id: 'acme', name: 'Acme ID' }] };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ data: config }), { status: 200, headers: { 'content-type': 'application/json' } })));
    renderWithRouter(() => <LoginScreen admin={false} search={{ interaction: 'uid-1' }} loginMachineOverride={fake.machine} />, '/login?interaction=uid-1');
    await screen.findByRole('link', { name: 'Continue with Acme ID' });
    await signIn('not-my-password');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Given password is invalid');
    expect(alert).toHaveTextContent("Do you sign in with single sign-on? Use your organization's button below instead of a password.");
  });

  it('no such hint without SSO providers', async () => {
    const fake = fakeLogin({ login: async () => Promise.reject(new ApiError({ kind: 'http', status: 401, code: 'invalid_credentials', message: 'x' })) });
    await renderLogin(fake.machine);
    await signIn('not-my-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Given password is invalid$/);
  });
});

describe('login hints (issue 29)', () => {
  it("the app's login_hint fills the e-mail field and is what is sent", async () => {
    const fake = fakeLogin({ login: async () => ({ status: 'complete', redirect_to: '/oidc/done' }) as LoginResult });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
    renderWithRouter(
      () => <LoginScreen admin={false} search={{ interaction: 'uid-1', login_hint: 'ada@example.com' }} loginMachineOverride={fake.machine} />,
      '/login?interaction=uid-1&login_hint=ada%40example.com',
    );
    expect(await screen.findByRole('textbox', { name: /e-mail/i })).toHaveValue('ada@example.com');
    await userEvent.type(screen.getByLabelText(/^password/i), 'Secret-Passw0rd!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(fake.submitCredentials).toHaveBeenCalled());
  });
});
