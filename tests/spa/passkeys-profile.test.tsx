import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { PasskeyCredentialJSON, PasskeyView } from '../../contract/passkeys';
import { createPasskeyRegistrationActors, passkeyRegistrationMachine } from '../../machines/passkeyRegistration.machine';
import { call } from '../../src/api/call';
import { toaster } from '../../src/components/ui/toaster';
import { PasskeysSection } from '../../src/features/account/profile/passkeys-section';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/**
 * Issue 33: the profile's Passkeys card against a local HTTP server (the real contract calls); the browser's ceremony
 * is the one thing jsdom cannot do, so `createPasskey` is a controlled promise (the real one is walked in Chromium,
 * e2e/passkeys.spec.ts).
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  vi.restoreAllMocks();
});
beforeEach(() => {
  // jsdom has no WebAuthn: the card offers "Add a passkey" only where the browser can
  Object.assign(window, { PublicKeyCredential: function PublicKeyCredential() {} });
});

const passkey = (id: string, patch: Partial<PasskeyView> = {}): PasskeyView => ({
  id,
  name: `Key ${id}`,
  created_at: '2026-11-28T09:00:00.000Z',
  last_used_at: null,
  kind: 'swk',
  backup_eligible: true,
  backed_up: true,
  ...patch,
});
const CREDENTIAL = { id: 'cred', rawId: 'cred', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', attestationObject: 'o2Nm' } } as PasskeyCredentialJSON;

function machineWith(createPasskey: (options: unknown) => Promise<PasskeyCredentialJSON>, cancel = vi.fn()) {
  return passkeyRegistrationMachine.provide({
    actors: { ...createPasskeyRegistrationActors({ call, createPasskey: (o) => createPasskey(o) }), createCredential: fromPromise(({ input }) => createPasskey(input.options)) },
    actions: { cancelCeremony: cancel },
  });
}

describe('profile: passkeys', () => {
  it('lists passkeys (kind, added, last used); adds one: name → browser prompt → saved and listed', { timeout: 60_000 }, async () => {
    let list = [passkey('a', { name: 'YubiKey', kind: 'hwk', backup_eligible: false, backed_up: false, last_used_at: '2026-11-28T10:00:00.000Z' })];
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === '/api/passkeys') return { body: { data: list } };
      if (req.method === 'POST' && req.path === '/api/passkeys/registration-options') return { body: { data: { options: { challenge: 'abc', timeout: 120000 } } } };
      if (req.method === 'POST' && req.path === '/api/passkeys') {
        const body = JSON.parse(req.body) as { name: string; credential: PasskeyCredentialJSON };
        const created = passkey('b', { name: body.name });
        list = [created, ...list];
        return { status: 201, body: { data: created } };
      }
      return undefined;
    });
    let resolve: (c: PasskeyCredentialJSON) => void = () => {};
    const createPasskey = vi.fn(() => new Promise<PasskeyCredentialJSON>((r) => (resolve = r)));
    await renderWithRouter(() => <PasskeysSection kind="user" machineOverride={machineWith(createPasskey)} />, '/profile');
    const items = within(await screen.findByRole('list', { name: 'Passkeys' }, { timeout: 10_000 })).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('YubiKey');
    expect(items[0]).toHaveTextContent('Security key');
    expect(items[0]).toHaveTextContent(/Added .* · Last used /);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter a name')).toBeInTheDocument();
    await user.type(name, 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText("Follow your browser's prompt to create the passkey.", {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(createPasskey).toHaveBeenCalledWith({ challenge: 'abc', timeout: 120000 });
    await act(async () => resolve(CREDENTIAL));
    expect(await screen.findByText('Passkey added: Laptop', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(JSON.parse(server.requests.find((r) => r.method === 'POST' && r.path === '/api/passkeys')?.body ?? 'null')).toEqual({ name: 'Laptop', credential: CREDENTIAL });
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Passkeys' })).getAllByRole('listitem')).toHaveLength(2), { timeout: 10_000 });
    expect(screen.getByRole('list', { name: 'Passkeys' })).toHaveTextContent('Laptop');
    expect(screen.getByRole('list', { name: 'Passkeys' })).toHaveTextContent('Never used');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('button', { name: 'Add a passkey' })).toBeInTheDocument();
  });

  it('a cancelled prompt comes back to the name step in words; Cancel while the browser asks closes its prompt', { timeout: 60_000 }, async () => {
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === '/api/admin/passkeys') return { body: { data: [] } };
      if (req.method === 'GET' && req.path === '/api/passkeys') return { body: { data: [] } };
      if (req.method === 'POST' && req.path === '/api/passkeys/registration-options') return { body: { data: { options: { challenge: 'abc' } } } };
      return undefined;
    });
    const cancel = vi.fn();
    let attempt = 0;
    const createPasskey = vi.fn(() => {
      attempt += 1;
      return attempt === 1 ? Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' })) : new Promise<PasskeyCredentialJSON>(() => {});
    });
    await renderWithRouter(() => <PasskeysSection kind="admin" machineOverride={machineWith(createPasskey, cancel)} />, '/admin/profile');
    expect(await screen.findByText(/No passkeys yet/, {}, { timeout: 10_000 })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The passkey request was cancelled or timed out. Try again, or use another way.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(cancel).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText("Follow your browser's prompt to create the passkey.", {}, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('rename and remove (asks first); a refusal reads in words', { timeout: 60_000 }, async () => {
    let list = [passkey('a', { name: 'Phone' })];
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === '/api/passkeys') return { body: { data: list } };
      if (req.method === 'PATCH' && req.path === '/api/passkeys/a') {
        list = [{ ...list[0]!, name: (JSON.parse(req.body) as { name: string }).name }];
        return { body: { data: list[0] } };
      }
      if (req.method === 'DELETE' && req.path === '/api/passkeys/a') {
        if (list[0]!.name === 'Old phone') return { status: 404, body: { error: { code: 'passkey_not_found', message: 'Passkey not found' } } };
        return { body: { data: { id: 'a', deleted: true } } };
      }
      return undefined;
    });
    const toasts = vi.spyOn(toaster, 'create');
    await renderWithRouter(() => <PasskeysSection kind="user" />, '/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename passkey: Phone' }, { timeout: 10_000 }));
    const field = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(field);
    await user.type(field, 'Old phone');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Passkeys' })).toHaveTextContent('Old phone'), { timeout: 10_000 });
    expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Passkey renamed' }));
    await user.click(screen.getByRole('button', { name: 'Remove passkey: Old phone' }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('"Old phone" can no longer sign in to your account.');
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(dialog).findByText('Passkey not found', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});
