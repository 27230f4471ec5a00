import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { PasskeyCredentialJSON } from '../../contract/passkeys';
import { loginMachine, type LoginResult, type PasskeyVerifyInput, type SecondFactorResult, type StartAuthorizationInput } from '../../machines/login.machine';
import { passkeyRegistrationMachine, type CeremonyOptions, type SaveInput, type SaveOutput } from '../../machines/passkeyRegistration.machine';
import { ApiError } from '../../src/api/errors';
import { LoginScreen } from '../../src/features/account/login/login-screen';
import { renderWithRouter } from './render';

/**
 * Issue 33: the sign-in's passkey screens on /login, driven by the login machine with fake actors per outcome (the
 * real ceremony is walked in Chromium: e2e/passkeys.spec.ts). jsdom has no WebAuthn: `PublicKeyCredential` is set so
 * the page offers passkeys.
 */
const OPTIONS: CeremonyOptions = { challenge: 'abc', timeout: 120_000 };
const CREDENTIAL = { id: 'c', rawId: 'c', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } } as PasskeyCredentialJSON;
const DONE = { status: 'complete', redirect_to: '/oidc/interaction/uid-1/done' } as const;

beforeEach(() => {
  Object.assign(window, { PublicKeyCredential: function PublicKeyCredential() {} });
  vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
});
afterEach(() => vi.unstubAllGlobals());

function fake(opts: { login?: () => Promise<LoginResult>; ceremony?: () => Promise<PasskeyCredentialJSON>; signIn?: () => Promise<LoginResult>; secondFactor?: () => Promise<SecondFactorResult>; save?: (input: SaveInput) => Promise<SaveOutput> }) {
  const redirect = vi.fn();
  const cancel = vi.fn();
  const passkeySignIn = vi.fn<(input: PasskeyVerifyInput) => Promise<LoginResult>>(opts.signIn ?? (async () => DONE));
  const passkeySecondFactor = vi.fn<(input: PasskeyVerifyInput) => Promise<SecondFactorResult>>(opts.secondFactor ?? (async () => DONE));
  const save = vi.fn(opts.save ?? (async () => ({ kind: 'signed_in', result: DONE }) as const));
  const machine = loginMachine.provide({
    actors: {
      startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => {}),
      checkInteraction: fromPromise<void, { interaction: string }>(async () => {}),
      submitCredentials: fromPromise(opts.login ?? (async () => DONE)),
      passkeyAutofill: fromPromise<LoginResult, { interaction: string }>(() => new Promise(() => {})),
      passkeyOptions: fromPromise(async () => OPTIONS),
      passkeyCeremony: fromPromise(opts.ceremony ?? (async () => CREDENTIAL)),
      passkeySignIn: fromPromise<LoginResult, PasskeyVerifyInput>(({ input }) => passkeySignIn(input)),
      passkeySecondFactor: fromPromise<SecondFactorResult, PasskeyVerifyInput>(({ input }) => passkeySecondFactor(input)),
      passkeyEnrolment: passkeyRegistrationMachine.provide({
        actors: { getOptions: fromPromise(async () => OPTIONS), createCredential: fromPromise(async () => CREDENTIAL), save: fromPromise<SaveOutput, SaveInput>(({ input }) => save(input)) },
        actions: { cancelCeremony: cancel },
      }),
    },
    actions: { redirect: (_, params: { url: string }) => redirect(params.url), navigate: () => {}, cancelCeremony: cancel },
  });
  return { machine, redirect, cancel, passkeySignIn, passkeySecondFactor, save };
}

const render = (machine: ReturnType<typeof fake>['machine']) => renderWithRouter(() => <LoginScreen admin={false} search={{ interaction: 'uid-1' }} loginMachineOverride={machine} />, '/login?interaction=uid-1');

async function password() {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: /e-mail/i }), 'ada@example.com');
  await user.type(screen.getByLabelText(/^password/i), 'Secret-Passw0rd!');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('login: passkeys', () => {
  it('"Sign in with a passkey": Cancel goes back quietly; a cancelled prompt says so; a passkey signs in', { timeout: 60_000 }, async () => {
    let attempt = 0;
    let release: (c: PasskeyCredentialJSON) => void = () => {};
    const f = fake({
      ceremony: () => {
        attempt += 1;
        if (attempt === 1) return new Promise<PasskeyCredentialJSON>((resolve) => (release = resolve));
        if (attempt === 2) return Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
        return Promise.resolve(CREDENTIAL);
      },
    });
    await render(f.machine);
    const user = userEvent.setup();
    // the e-mail field offers the browser's passkeys (conditional UI)
    expect(await screen.findByRole('textbox', { name: /e-mail/i })).toHaveAttribute('autocomplete', 'username webauthn');
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText("Follow your browser's prompt to sign in with your passkey.", {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(f.cancel).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('button', { name: 'Sign in with a passkey' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    release(CREDENTIAL); // the aborted ceremony's late answer changes nothing
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('The passkey request was cancelled or timed out. Try again, or use another way.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(f.passkeySignIn).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(f.redirect).toHaveBeenCalledWith(DONE.redirect_to), { timeout: 10_000 });
    expect(f.passkeySignIn).toHaveBeenCalledWith({ interaction: 'uid-1', credential: CREDENTIAL });
  });

  it('an unknown passkey reads in words on the form', { timeout: 60_000 }, async () => {
    const f = fake({ signIn: () => Promise.reject(new ApiError({ kind: 'http', status: 401, code: 'passkey_unknown', message: 'Unknown passkey' })) });
    await render(f.machine);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('This passkey is not registered (any more). Sign in another way, or remove it from your device', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /e-mail/i })).toBeInTheDocument();
  });

  it('second factor: "Use a passkey instead" next to the code; a passkey-only account gets the passkey screen without code links', { timeout: 60_000 }, async () => {
    const withCode = fake({ login: async () => ({ status: 'two_factor_required', method: 'GOOGLE', passkey: true }) });
    const first = await render(withCode.machine);
    await password();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Use a passkey instead' }, { timeout: 10_000 }));
    await waitFor(() => expect(withCode.redirect).toHaveBeenCalledWith(DONE.redirect_to), { timeout: 10_000 });
    expect(withCode.passkeySecondFactor).toHaveBeenCalledWith({ interaction: 'uid-1', credential: CREDENTIAL });
    first.unmount();

    const only = fake({
      login: async () => ({ status: 'two_factor_required', method: 'PASSKEY' }),
      secondFactor: () => Promise.reject(new ApiError({ kind: 'http', status: 401, code: 'passkey_invalid', message: 'invalid' })),
    });
    await render(only.machine);
    const user = await password();
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a one-time password instead' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Use your passkey' }));
    expect(await screen.findByText('The passkey could not be verified', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(only.redirect).not.toHaveBeenCalled();
  });

  it('a required passkey is added during the sign-in, which then goes on', { timeout: 60_000 }, async () => {
    const f = fake({ login: async () => ({ status: 'enrolment_required', requirement: 'passkey' }) });
    await render(f.machine);
    const user = await password();
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a passkey to continue' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText(/Your organization requires a passkey for this account/)).toBeInTheDocument();
    // required: no Cancel
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Office key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(f.redirect).toHaveBeenCalledWith(DONE.redirect_to), { timeout: 10_000 });
    expect(f.save).toHaveBeenCalledWith({ mode: 'enrolment', interaction: 'uid-1', name: 'Office key', credential: CREDENTIAL });
  });
});
