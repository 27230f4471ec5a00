import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../src/features/admin/dashboard/dashboard';
import { activateLocale } from '../../src/lib/i18n';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/**
 * Issue 14 (every error in its own words) and issue 29: the admin logs show a recorded error in the admin's language
 * by its code (the product's sentence, else the code's words, as for the provider's OAuth codes); the server's recorded
 * (English) message never shows, not even as a tooltip: it is only data-recorded-message, for support.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await activateLocale('en');
});

const at = '2026-01-02T10:00:00.000Z';
const logged = [
  { id: 'e1', error_code: 'invalid_link', status: 403, method: 'GET', url: '/api/setup/:token', message: 'This link is invalid or has expired', user_email: null, created_at: at },
  { id: 'e2', error_code: 'validation_failed', status: 422, method: 'POST', url: '/api/admin/roles', message: 'Some fields are invalid (name: invalid)', user_email: 'admin@example.com', created_at: at },
  { id: 'e3', error_code: 'invalid_grant', status: 400, method: 'POST', url: '/oidc/token', message: 'grant request is invalid', user_email: null, created_at: at },
  { id: 'e4', error_code: 'too_many_requests', status: 429, method: 'POST', url: '/api/login', message: 'Too many requests', user_email: null, created_at: at },
];

async function renderLogs() {
  server = await startAdminServer((req) => {
    if (req.path === '/api/admin/logs/activities') return { body: { data: [], meta: { page: 1, size: 10, total: 0 } } };
    if (req.path === '/api/admin/logs/activities/daily') return { body: { data: [] } };
    if (req.path === '/api/admin/logs/errors') return { body: { data: logged, meta: { page: 1, size: 10, total: logged.length } } };
    return undefined;
  });
  await renderWithRouter(() => <Dashboard search={{}} onSearchChange={() => undefined} />, '/admin/dashboard');
  const body = (await screen.findByText('403 · invalid_link')).closest('tbody');
  if (!body) throw new Error('no table body');
  const rows = within(body).getAllByRole('row');
  return rows.map((row) => within(row).getAllByRole('cell')[2]!);
}

/** The URL cells of the admin logs. */
function urlCells(): HTMLElement[] {
  const body = screen.getByText('403 · invalid_link').closest('tbody')!;
  return within(body)
    .getAllByRole('row')
    .map((row) => within(row).getAllByRole('cell')[1]!);
}

describe('admin logs: messages in the admin language', () => {
  it('French: every row in French by its code, the recorded English message only as data for support, never shown (issue 29)', { timeout: 60_000 }, async () => {
    await activateLocale('fr');
    const [link, validation, oauth, rate] = await renderLogs();
    expect(link!.textContent).toBe("Ce lien est invalide ou a expiré");
    expect(link!.querySelector('[data-recorded-message]')?.getAttribute('data-recorded-message')).toBe('This link is invalid or has expired');
    expect(validation!.textContent).not.toMatch(/Some fields/);
    expect(validation!.querySelector('[data-recorded-message]')?.getAttribute('data-recorded-message')).toBe('Some fields are invalid (name: invalid)');
    // the provider's OAuth code: its words in French, never the provider's English message in the page
    expect(oauth!.textContent).toBe('Autorisation invalide ou expirée');
    expect(oauth!.querySelector('[data-recorded-message]')?.getAttribute('data-recorded-message')).toBe('grant request is invalid');
    expect(rate!.textContent).not.toContain('{seconds}');
    expect(rate!.textContent).not.toMatch(/Too many requests/);
    for (const cell of [link, validation, oauth, rate]) expect(cell!.querySelector('[lang="en"]')).toBeNull();
  });

  it('German: no recorded English text in any message cell', { timeout: 60_000 }, async () => {
    await activateLocale('de');
    const cells = await renderLogs();
    for (const [i, cell] of cells.entries()) expect(cell.textContent).not.toContain(logged[i]!.message);
    expect(cells[2]!.textContent).toBe('Ungültige oder abgelaufene Berechtigung');
  });

  it('English: the message once, the recorded detail kept as data when it says more', { timeout: 60_000 }, async () => {
    const [link, validation] = await renderLogs();
    expect(link!.textContent).toBe('This link is invalid or has expired');
    expect(link!.querySelector('[data-recorded-message]')).toBeNull();
    expect(validation!.textContent).toBe('Some fields are invalid');
    expect(validation!.querySelector('[data-recorded-message]')?.getAttribute('data-recorded-message')).toBe('Some fields are invalid (name: invalid)');
  });

  it('an unknown code shows the code, not the recorded English message', { timeout: 60_000 }, async () => {
    await activateLocale('de');
    logged.push({ id: 'e5', error_code: 'some_future_code', status: 400, method: 'GET', url: '/api/x', message: 'Something in English', user_email: null, created_at: at });
    try {
      const cells = await renderLogs();
      expect(cells[4]!.textContent).toBe('some_future_code');
      expect(cells[4]!.querySelector('[data-recorded-message]')?.getAttribute('data-recorded-message')).toBe('Something in English');
    } finally {
      logged.pop();
    }
  });

  it('the date filters of the dashboard follow the admin language (jj/mm/aaaa in French, not the browser mm/dd/yyyy)', { timeout: 60_000 }, async () => {
    await activateLocale('fr');
    await renderLogs();
    // the date field loads when first shown (a read-only stand-in until then)
    await waitFor(() => {
      const from = screen.getAllByRole('textbox', { name: 'Du' });
      expect(from.length).toBe(2);
      for (const field of from) expect((field as HTMLInputElement).placeholder).toBe('jj/mm/aaaa');
    });
  });

  it('a URL stays on one line, cut with an ellipsis, the whole of it in the title', { timeout: 60_000 }, async () => {
    await renderLogs();
    const [first] = urlCells();
    const line = first!.querySelector('[title]');
    expect(line?.getAttribute('title')).toBe('GET /api/setup/:token');
    expect(line?.textContent).toBe('GET /api/setup/:token');
    expect(line?.className).toMatch(/white-space_nowrap|text-overflow_ellipsis|tov_ellipsis|white-s_nowrap|ws_nowrap/);
  });
});
