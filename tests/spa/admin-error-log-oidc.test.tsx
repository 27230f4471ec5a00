import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../src/features/admin/dashboard/dashboard';
import type { DashboardSearch } from '../../src/features/admin/dashboard/search';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/** Issue 14 (admin logs): the errors of the OIDC provider appear in the admin logs with their OAuth code, and the code filter offers them. */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const oidcError = { id: 'e1', error_code: 'invalid_grant', status: 400, method: 'POST', url: '/oidc/token', message: 'grant request is invalid (authorization code not found)', user_email: null, created_at: '2026-01-02T10:00:00.000Z' };

describe('admin logs: errors of the OIDC provider', () => {
  it('shows an /oidc error with its code and filters by an OAuth code', { timeout: 60_000 }, async () => {
    server = await startAdminServer((req) => {
      if (req.path === '/api/admin/logs/activities') return { body: { data: [], meta: { page: 1, size: 10, total: 0 } } };
      if (req.path === '/api/admin/logs/activities/daily') return { body: { data: [] } };
      if (req.path === '/api/admin/logs/errors') return { body: { data: [oidcError], meta: { page: 1, size: 10, total: 1 } } };
      return undefined;
    });
    const changes: DashboardSearch[] = [];
    const user = userEvent.setup();
    await renderWithRouter(() => <Dashboard search={{}} onSearchChange={(s) => changes.push(s)} />, '/admin/dashboard');
    expect(await screen.findByText('400 · invalid_grant')).toBeInTheDocument();
    expect(screen.getByText('POST /oidc/token')).toBeInTheDocument();
    // the select loads after the first render (simple-select-lazy.tsx); its placeholder shows the label meanwhile
    await user.click(await screen.findByRole('combobox', { name: 'Error code' }, { timeout: 20_000 }));
    await user.click(await screen.findByRole('option', { name: 'Unknown or unauthenticated app' }));
    await waitFor(() => expect(changes.at(-1)?.e_code).toBe('invalid_client'));
  });
});
