import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_LABELS } from '../../src/features/admin/dashboard/audit-card';
import { Dashboard } from '../../src/features/admin/dashboard/dashboard';
import { activateLocale } from '../../src/lib/i18n';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/**
 * Issue 28 finding 3: every lock an admin clears is an audit entry, visible in the admin audit view: the dashboard's
 * audit trail (super_admin), in the admin's language, with who, which key and when.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await activateLocale('en');
});

const entries = [
  { id: 'a1', actor_id: 'm1', actor_email: 'manager@example.com', action: 'lock.cleared', target_type: 'lock', target_id: 'account:7d0c1c52-4bb4-4d8e-9d0f-1d1f3a4c5b6a', before: { failures: 5 }, after: null, ip_address: '203.0.113.9', created_at: '2026-01-02T10:00:00.000Z' },
  { id: 'a2', actor_id: null, actor_email: null, action: 'some.future_action', target_type: 'thing', target_id: null, before: null, after: null, ip_address: null, created_at: '2026-01-02T09:00:00.000Z' },
];

async function renderDashboard(showAudit: boolean) {
  server = await startAdminServer((req) => {
    if (req.path === '/api/admin/logs/activities' || req.path === '/api/admin/logs/errors') return { body: { data: [], meta: { page: 1, size: 10, total: 0 } } };
    if (req.path === '/api/admin/logs/activities/daily') return { body: { data: [] } };
    if (req.path === '/api/admin/audit') return { body: { data: req.query.get('action') === 'lock.cleared' ? entries.slice(0, 1) : entries, meta: { page: 1, size: 10, total: 2 } } };
    return undefined;
  });
  await renderWithRouter(() => <Dashboard search={{}} showAudit={showAudit} onSearchChange={() => undefined} />, '/admin/dashboard');
}

describe('admin audit trail', () => {
  it('German: a cleared lock shows as "Sperre aufgehoben" with its key, the admin, the address and the time; unknown actions keep their code', { timeout: 60_000 }, async () => {
    await activateLocale('de');
    await renderDashboard(true);
    expect(await screen.findAllByText('Änderungsprotokoll')).not.toHaveLength(0);
    const cleared = (await screen.findByText('Sperre aufgehoben', { selector: 'td span' })).closest('tr')!;
    expect(cleared.textContent).toContain('lock.cleared');
    expect(cleared.textContent).toContain('lock · account:7d0c1c52-4bb4-4d8e-9d0f-1d1f3a4c5b6a');
    expect(cleared.textContent).toContain('manager@example.com');
    expect(cleared.textContent).toContain('203.0.113.9');
    expect(cleared.textContent).toMatch(/02\.01\.2026/);
    const other = screen.getByText('System', { selector: 'td' }).closest('tr')!;
    expect(other.textContent).toContain('some.future_action');
  });

  it('is not shown (nor fetched) for a manager', { timeout: 60_000 }, async () => {
    await renderDashboard(false);
    await screen.findByText('No errors logged');
    expect(screen.queryByText('Audit trail')).toBeNull();
    expect(server!.requests.some((r) => r.path === '/api/admin/audit')).toBe(false);
  });
});

describe('audit action words', () => {
  it('every action the server records under a literal name (recordAudit(…, \'area.action\', …)) has words in the audit trail', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) files.push(path);
      }
    };
    walk(join(__dirname, '../../server'));
    const recorded = new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/recordAudit\([^;']{0,160}?'([a-z_]+\.[a-z_.]+)'/g)].map((m) => m[1]!)));
    // the passkey actions (issue 33) among them, so that the scan itself is seen to work
    expect([...recorded]).toEqual(expect.arrayContaining(['passkey.registered', 'passkey.counter_regression', 'user.passkey_removed', 'settings.second_factor', 'lock.cleared']));
    expect([...recorded].filter((action) => !(action in ACTION_LABELS)).sort()).toEqual([]);
  });
});
