import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PasskeyView } from '../../contract/passkeys';
import { toaster } from '../../src/components/ui/toaster';
import { UserPasskeysCard } from '../../src/features/admin/users/user-passkeys-card';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/** Issue 33, the console's part: a user's passkeys on the user information page. */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  vi.restoreAllMocks();
});

const userId = '00000000-0000-4000-8000-000000000042';
const passkey = (id: string, patch: Partial<PasskeyView>): PasskeyView => ({
  id,
  name: 'Passkey',
  created_at: '2026-11-20T09:00:00.000Z',
  last_used_at: '2026-11-28T10:00:00.000Z',
  kind: 'swk',
  backup_eligible: true,
  backed_up: true,
  ...patch,
});
const refusal = (status: number, code: string) => ({ status, body: { error: { code, message: code } } });

async function openCard() {
  await renderWithRouter(() => <UserPasskeysCard userId={userId} titleId="passkeys-title" />, `/admin/user-information/${userId}`);
  return within(await screen.findByRole('list', { name: 'Passkeys' }, { timeout: 10_000 })).getAllByRole('listitem');
}

describe('admin user page: passkeys card', () => {
  it('lists the passkeys with their kind and use; "Remove" asks first, then removes it, refreshes the list and says so', { timeout: 30_000 }, async () => {
    let list = [
      passkey('pk-key', { name: 'YubiKey 5C', kind: 'hwk', backup_eligible: false, backed_up: false, last_used_at: null }),
      passkey('pk-sync', { name: 'iPhone', kind: 'swk', backup_eligible: true }),
      passkey('pk-device', { name: 'Work laptop', kind: 'swk', backup_eligible: false, backed_up: false }),
    ];
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === `/api/admin/users/${userId}/passkeys`) return { body: { data: list } };
      if (req.method === 'DELETE' && req.path === `/api/admin/users/${userId}/passkeys/pk-key`) {
        list = list.filter((p) => p.id !== 'pk-key');
        return { body: { data: { id: 'pk-key', deleted: true } } };
      }
      return undefined;
    });
    const toasts = vi.spyOn(toaster, 'create');
    const items = await openCard();
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('YubiKey 5C');
    expect(items[0]).toHaveTextContent('Security key');
    expect(items[0]).toHaveTextContent('Never used');
    expect(items[0]).toHaveTextContent(/Added .*2026/);
    expect(items[1]).toHaveTextContent('iPhone');
    expect(items[1]).toHaveTextContent('Synced passkey');
    expect(items[1]).toHaveTextContent(/Last used .*2026/);
    expect(items[1]).not.toHaveTextContent('Never used');
    expect(items[2]).toHaveTextContent('Passkey on one device');

    const user = userEvent.setup();
    await user.click(within(items[0]!).getByRole('button', { name: 'Remove passkey: YubiKey 5C' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this passkey?' }, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('“YubiKey 5C” can no longer be used to sign in.');
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(server?.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/api/admin/users/${userId}/passkeys/pk-key`]), { timeout: 10_000 });
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2), { timeout: 10_000 });
    expect(screen.queryByText('YubiKey 5C')).toBeNull();
    await waitFor(() => expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Passkey removed', description: 'YubiKey 5C' })));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('"Cancel" removes nothing', { timeout: 30_000 }, async () => {
    server = await startAdminServer((req) => (req.method === 'GET' ? { body: { data: [passkey('pk1', { name: 'Pixel' })] } } : undefined));
    const items = await openCard();
    const user = userEvent.setup();
    await user.click(within(items[0]!).getByRole('button', { name: 'Remove passkey: Pixel' }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('says so when the user has no passkeys', { timeout: 30_000 }, async () => {
    server = await startAdminServer((req) => (req.method === 'GET' ? { body: { data: [] } } : undefined));
    await renderWithRouter(() => <UserPasskeysCard userId={userId} titleId="passkeys-title" />);
    expect(await screen.findByText('This user has no passkeys.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it.each([
    [refusal(404, 'passkey_not_found'), 'This passkey had already been removed.'],
    [refusal(404, 'user_not_found'), 'This user no longer exists'],
    [refusal(403, 'forbidden'), 'You are not allowed to do this'],
  ])('a refused removal (%j) is said in words in the dialog, and the list is fetched again', { timeout: 30_000 }, async (answer, words) => {
    server = await startAdminServer((req) => {
      if (req.method === 'GET') return { body: { data: [passkey('pk1', { name: 'Pixel' })] } };
      if (req.method === 'DELETE') return answer;
      return undefined;
    });
    const toasts = vi.spyOn(toaster, 'create');
    const items = await openCard();
    const user = userEvent.setup();
    await user.click(within(items[0]!).getByRole('button', { name: 'Remove passkey: Pixel' }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(dialog).findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(words);
    await waitFor(() => expect(server?.requests.filter((r) => r.method === 'GET')).toHaveLength(2), { timeout: 10_000 });
    expect(toasts).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'success' }));
  });

  it('a list the server refuses is said in words', { timeout: 30_000 }, async () => {
    server = await startAdminServer(() => refusal(404, 'user_not_found'));
    await renderWithRouter(() => <UserPasskeysCard userId={userId} titleId="passkeys-title" />);
    expect(await screen.findByText('This user no longer exists', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});
