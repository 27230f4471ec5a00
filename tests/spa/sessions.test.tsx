import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../src/components/ui/toaster';
import type { SessionView } from '../../contract/sessions';
import { SessionsSection } from '../../src/features/account/profile/sessions-section';
import { UserSessionsCard } from '../../src/features/admin/users/user-sessions-card';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/** Issue 33: the sessions card of the profile and of the admin's user page, against a local HTTP server. */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const session = (id: string, patch: Partial<SessionView>): SessionView => ({
  id,
  current: false,
  browser: 'Firefox',
  browser_version: '133',
  os: 'Windows',
  device_type: 'desktop',
  ip_address: '203.0.113.9',
  place: null,
  signed_in_at: '2026-11-28T09:00:00.000Z',
  last_used_at: '2026-11-28T10:00:00.000Z',
  apps: [{ client_id: 'portal', name: null }],
  ...patch,
});

describe('profile: sessions', () => {
  it('lists the sessions with "This device" on the caller’s own; "End session" asks first, then ends it and says so', { timeout: 30_000 }, async () => {
    let list = [
      session('s-here', { current: true, browser: 'Chrome', browser_version: '131', os: 'macOS', place: 'CH' }),
      session('s-other', { device_type: 'mobile', browser: 'Safari', browser_version: '18', os: 'iOS', apps: [{ client_id: 'portal', name: null }, { client_id: 'svc', name: 'Wiki' }] }),
    ];
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === '/api/user/sessions') return { body: { data: list } };
      if (req.method === 'DELETE' && req.path === '/api/user/sessions/s-other') {
        list = list.filter((s) => s.id !== 's-other');
        return { body: { data: { ended: 1 } } };
      }
      return undefined;
    });
    const toasts = vi.spyOn(toaster, 'create');
    await renderWithRouter(() => <SessionsSection kind="user" />, '/profile');
    const items = within(await screen.findByRole('list', { name: 'Sessions' }, { timeout: 10_000 })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Chrome 131 on macOS');
    expect(items[0]).toHaveTextContent('This device');
    expect(items[0]).toHaveTextContent('Switzerland');
    // this device is not ended here (that is "Logout")
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(items[1]).toHaveTextContent('Safari 18 on iOS');
    expect(items[1]).toHaveTextContent('Mobile phone · 203.0.113.9');
    expect(items[1]).toHaveTextContent('Apps: Portal, Wiki');
    expect(items[1]).not.toHaveTextContent('This device');
    const user = userEvent.setup();
    await user.click(within(items[1]!).getByRole('button', { name: 'End session: Safari 18 on iOS' }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('Safari 18 on iOS is signed out');
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(server?.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/user/sessions/s-other']), { timeout: 10_000 });
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1), { timeout: 10_000 });
    await waitFor(() => expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Session ended: Safari 18 on iOS' })));
    toasts.mockRestore();
    // only this device is left: no "End all other sessions"
    expect(screen.queryByRole('button', { name: 'End all other sessions' })).toBeNull();
  });

  it('"End all other sessions" asks first; a refusal is shown in the dialog', { timeout: 30_000 }, async () => {
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === '/api/admin/sessions') return { body: { data: [session('a', { current: true }), session('b', {})] } };
      if (req.method === 'POST' && req.path === '/api/admin/sessions/end-others') return { status: 429, body: { error: { code: 'too_many_requests', message: 'Too many requests' } } };
      return undefined;
    });
    await renderWithRouter(() => <SessionsSection kind="admin" />, '/admin/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'End all other sessions' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'End all other sessions' }));
    expect(await within(dialog).findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(/\S/);
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/admin/sessions/end-others']);
  });
});

describe('admin user page: sessions', () => {
  it('shows the user’s sessions without "This device" and ends one after confirmation', { timeout: 30_000 }, async () => {
    const id = '00000000-0000-4000-8000-000000000042';
    let list = [session('u1', { current: false }), session('u2', { browser: null, browser_version: null, os: null })];
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === `/api/admin/users/${id}/sessions`) return { body: { data: list } };
      if (req.method === 'DELETE' && req.path === `/api/admin/users/${id}/sessions/u2`) {
        list = list.filter((s) => s.id !== 'u2');
        return { body: { data: { ended: 1 } } };
      }
      return undefined;
    });
    await renderWithRouter(() => <UserSessionsCard userId={id} titleId="t" />);
    const items = within(await screen.findByRole('list', { name: 'Sessions' }, { timeout: 10_000 })).getAllByRole('listitem');
    expect(items.map((i) => within(i).getAllByRole('button').length)).toEqual([1, 1]);
    expect(screen.queryByText('This device')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'End session: Unknown browser' }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1), { timeout: 10_000 });
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/api/admin/users/${id}/sessions/u2`]);
  });
});
