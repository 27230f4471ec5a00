import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecondFactorPolicy } from '../../contract/passkeys';
import { toaster } from '../../src/components/ui/toaster';
import { formValues, policyOf, SecondFactorSettings, settingsSchema } from '../../src/features/admin/catalog/second-factor-settings';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/**
 * Issue 33, the console's part: /admin/settings, who must sign in with a second factor or a passkey (GET/PUT
 * /api/admin/settings/second-factor, super_admin), against a local HTTP server. The nav entry and the guard per role:
 * tests/spa/sidebar.test.tsx and guards.test.tsx.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  vi.restoreAllMocks();
});

const refusal = (status: number, code: string) => ({ status, body: { error: { code, message: code } } });

const roles = [
  { id: 'r1', name: 'APP_ADMIN', description: '', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
  { id: 'r2', name: 'CONTENT_EDITOR', description: '', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
];

function settingsServer(opts: { policy: SecondFactorPolicy; roles?: typeof roles; total?: number; put?: (body: SecondFactorPolicy) => { status?: number; body: unknown } }) {
  return startAdminServer((req) => {
    if (req.method === 'GET' && req.path === '/api/admin/settings/second-factor') return { body: { data: opts.policy } };
    if (req.method === 'GET' && req.path === '/api/admin/roles') {
      const list = opts.roles ?? roles;
      return { body: { data: list, meta: { page: 1, size: 100, total: opts.total ?? list.length } } };
    }
    if (req.method === 'PUT' && req.path === '/api/admin/settings/second-factor' && opts.put) return opts.put(JSON.parse(req.body) as SecondFactorPolicy);
    return undefined;
  });
}

const puts = () => (server?.requests ?? []).filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body) as SecondFactorPolicy);
const adminsGroup = () => screen.getByRole('group', { name: 'All admins' });

describe('/admin/settings: the second-factor requirement', () => {
  it('loads the policy into the form, warns about enrolment, saves what was chosen and says so', { timeout: 30_000 }, async () => {
    server = await settingsServer({
      // 'gone' is a role deleted since: not listed, not sent back (the server would refuse it)
      policy: { admins: 'second_factor', roles: [{ role_id: 'r2', requirement: 'passkey' }, { role_id: 'gone', requirement: 'passkey' }] },
      put: (body) => ({ body: { data: { admins: body.admins, roles: body.roles.filter((r) => r.requirement !== 'none') } } }),
    });
    const toasts = vi.spyOn(toaster, 'create');
    await renderWithRouter(() => <SecondFactorSettings />, '/admin/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' }, { timeout: 10_000 })).toBeInTheDocument();
    await screen.findByRole('group', { name: 'All admins' }, { timeout: 10_000 });
    expect(screen.getByText(/walked through setting it up \(for a passkey: enrolling one\) at their next sign-in/)).toBeInTheDocument();
    expect(within(adminsGroup()).getByRole('radio', { name: /^Any second factor/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'APP_ADMIN Not required' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'CONTENT_EDITOR Passkey' })).toBeChecked();

    const user = userEvent.setup();
    await user.click(within(adminsGroup()).getByRole('radio', { name: /^Passkey/ }));
    await user.click(screen.getByRole('radio', { name: 'APP_ADMIN Any second factor' }));
    await user.click(screen.getByRole('radio', { name: 'CONTENT_EDITOR Not required' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(1), { timeout: 10_000 });
    expect(puts()[0]).toEqual({
      admins: 'passkey',
      roles: [
        { role_id: 'r1', requirement: 'second_factor' },
        { role_id: 'r2', requirement: 'none' },
      ],
    });
    await waitFor(() => expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Second-factor requirement saved' })));
    // the saved answer is what the form shows now
    expect(within(adminsGroup()).getByRole('radio', { name: /^Passkey/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'CONTENT_EDITOR Not required' })).toBeChecked();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a role deleted since the page loaded: its row says so (role_unknown), the others are kept as chosen', { timeout: 30_000 }, async () => {
    server = await settingsServer({
      policy: { admins: 'none', roles: [] },
      put: () => ({ status: 422, body: { error: { code: 'validation_failed', message: 'Some fields are invalid', fields: { 'roles.1.role_id': ['role_unknown'] } } } }),
    });
    await renderWithRouter(() => <SecondFactorSettings />, '/admin/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'CONTENT_EDITOR Passkey' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('Some rows could not be saved; see the marks below.');
    const row = screen.getByRole('radio', { name: 'CONTENT_EDITOR Passkey' });
    expect(row).toHaveAttribute('aria-invalid', 'true');
    expect(row).toHaveAccessibleDescription('This role no longer exists; reload the page.');
    expect(row).toBeChecked();
    expect(screen.getByRole('radio', { name: 'APP_ADMIN Not required' })).not.toHaveAttribute('aria-invalid');
  });

  it.each([
    [refusal(403, 'forbidden'), 'You are not allowed to do this'],
    [refusal(500, 'internal_error'), 'An error occurred, please try again'],
  ])('a refused save (%j) is said in words, and nothing is claimed saved', { timeout: 30_000 }, async (answer, words) => {
    server = await settingsServer({ policy: { admins: 'none', roles: [] }, put: () => answer });
    const toasts = vi.spyOn(toaster, 'create');
    await renderWithRouter(() => <SecondFactorSettings />, '/admin/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 }));
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(words);
    expect(toasts).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'success' }));
  });

  it('with more roles than one page lists, the requirements of the roles not shown are kept', { timeout: 30_000 }, async () => {
    server = await settingsServer({
      policy: { admins: 'none', roles: [{ role_id: 'r-far', requirement: 'passkey' }] },
      roles: [roles[0]!],
      total: 150,
      put: (body) => ({ body: { data: body } }),
    });
    await renderWithRouter(() => <SecondFactorSettings />, '/admin/settings');
    expect(await screen.findByText(/Only the first 1 of 150 roles are listed/, {}, { timeout: 10_000 })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(1), { timeout: 10_000 });
    expect(puts()[0]?.roles).toEqual([
      { role_id: 'r1', requirement: 'none' },
      { role_id: 'r-far', requirement: 'passkey' },
    ]);
  });

  it('without roles the table says so; the admins’ requirement can still be set', { timeout: 30_000 }, async () => {
    server = await settingsServer({ policy: { admins: 'none', roles: [] }, roles: [] });
    await renderWithRouter(() => <SecondFactorSettings />, '/admin/settings');
    expect(await screen.findByText(/There are no roles yet/, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(adminsGroup()).getAllByRole('radio')).toHaveLength(3);
  });

  it('a policy the server will not show (a manager’s call: forbidden) is said in words', { timeout: 30_000 }, async () => {
    server = await startAdminServer((req) => (req.path === '/api/admin/settings/second-factor' ? refusal(403, 'forbidden') : { body: { data: roles, meta: { page: 1, size: 100, total: 2 } } }));
    await renderWithRouter(() => <SecondFactorSettings />, '/admin/settings');
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('You are not allowed to do this');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});

describe('second-factor settings: the form model', () => {
  it('the schema takes the contract’s three requirements and nothing else', () => {
    const ok = { admins: 'passkey', roles: [{ role_id: 'r1', requirement: 'second_factor' }] };
    expect(settingsSchema.safeParse(ok).success).toBe(true);
    for (const bad of [{ ...ok, admins: 'sms' }, { ...ok, roles: [{ role_id: 'r1', requirement: 'always' }] }, { ...ok, roles: [{ role_id: '', requirement: 'none' }] }, { roles: [] }]) {
      expect(settingsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('every listed role is a row (none when the policy does not name it); saving drops unlisted roles unless the list was cut', () => {
    const policy: SecondFactorPolicy = { admins: 'second_factor', roles: [{ role_id: 'r2', requirement: 'passkey' }, { role_id: 'x', requirement: 'second_factor' }] };
    const values = formValues(policy, roles);
    expect(values).toEqual({ admins: 'second_factor', roles: [{ role_id: 'r1', requirement: 'none' }, { role_id: 'r2', requirement: 'passkey' }] });
    expect(policyOf(values, policy, true).roles.map((r) => r.role_id)).toEqual(['r1', 'r2']);
    expect(policyOf(values, policy, false).roles.map((r) => r.role_id)).toEqual(['r1', 'r2', 'x']);
  });
});
