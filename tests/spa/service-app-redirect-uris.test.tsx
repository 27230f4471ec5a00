import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceAppsPage } from '../../src/features/admin/catalog/service-apps-page';
import { toaster } from '../../src/components/ui/toaster';
import { activateLocale } from '../../src/lib/i18n';
import { startAdminServer, type Handler, type Recorded } from './admin-server';
import { renderWithRouter } from './render';
import { serviceAppFixture } from './service-app-fixture';

/**
 * Issue 31.2: the service app form's list editors for the redirect URIs (1–10) and the post-logout redirect URIs
 * (0–10): add and remove by mouse and keyboard (focus follows), the limits, each row's own validation (the rules the
 * server applies, contract/domain/redirect-uris.ts) and the server's per-row refusals, in the reader's language.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
let toasts: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  toasts = vi.spyOn(toaster, 'create');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = null;
  await activateLocale('en');
});

const old = serviceAppFixture({
  name: 'intranet',
  display_name: 'Intranet',
  url: 'http://intranet.example.com',
  // registered before the https rule: kept through edits
  post_logout_redirect_uris: ['http://intranet.example.com/'],
});

async function api(handler: Handler = () => undefined) {
  server = await startAdminServer((req) => {
    const own = handler(req);
    if (own) return own;
    if (req.method === 'GET' && req.path === '/api/admin/service-apps') return { body: { data: [old], meta: { page: 1, size: 100, total: 1 } } };
    if (req.method === 'GET' && req.path === '/api/admin/roles') return { body: { data: [], meta: { page: 1, size: 100, total: 0 } } };
    if (req.method === 'PATCH' && req.path === '/api/admin/service-apps/a1') return { body: { data: { ...old, ...(JSON.parse(req.body) as object), client_secret: null } } };
    if (req.method === 'POST' && req.path === '/api/admin/service-apps') return { status: 201, body: { data: { ...old, id: 'a2', ...(JSON.parse(req.body) as object), client_secret: null } } };
    return undefined;
  });
}

const sentBody = (method: string) =>
  waitFor(() => {
    const r = server?.requests.find((q: Recorded) => q.method === method);
    expect(r).toBeTruthy();
    return JSON.parse((r as Recorded).body) as Record<string, unknown>;
  });

async function openAdd() {
  await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
  await userEvent.click(await screen.findByRole('button', { name: 'Add service app' }, { timeout: 5_000 }));
  return screen.findByRole('dialog', { name: 'Add service app' });
}

const row = (dialog: HTMLElement, name: string) => within(dialog).getByRole('textbox', { name });
const rows = (dialog: HTMLElement, list: 'redirect-uris' | 'post-logout-uris') => within(within(dialog).getByTestId(list)).queryAllByRole('textbox');

describe('service app form: redirect URI list editors', () => {
  it('adds and removes rows with the mouse; the first row stays, the tenth is the last; focus follows', async () => {
    await api();
    const u = userEvent.setup();
    const dialog = await openAdd();
    const group = within(dialog).getByRole('group', { name: 'Redirect URIs' });
    expect(group).toHaveAccessibleDescription(/exactly, character for character; no wildcards/);
    expect(rows(dialog, 'redirect-uris')).toHaveLength(1);
    // one redirect URI is required: its remove button is off
    expect(within(dialog).getByRole('button', { name: 'Remove redirect URI 1' })).toBeDisabled();
    await u.type(row(dialog, 'Redirect URI 1'), 'https://a.example.com/one');
    const add = within(dialog).getByRole('button', { name: 'Add redirect URI' });
    for (let n = 2; n <= 10; n++) {
      await u.click(add);
      await waitFor(() => expect(row(dialog, `Redirect URI ${n}`)).toHaveFocus());
      await u.keyboard(`https://a.example.com/${n}`);
    }
    expect(rows(dialog, 'redirect-uris')).toHaveLength(10);
    expect(add).toBeDisabled();
    expect(within(group).getByText('At most 10')).toBeVisible();
    // removing the third: the fourth moves up, keeps its value, and takes the focus
    await u.click(within(dialog).getByRole('button', { name: 'Remove redirect URI 3' }));
    expect(rows(dialog, 'redirect-uris').map((i) => (i as HTMLInputElement).value).slice(0, 4)).toEqual(['https://a.example.com/one', 'https://a.example.com/2', 'https://a.example.com/4', 'https://a.example.com/5']);
    await waitFor(() => expect(row(dialog, 'Redirect URI 3')).toHaveFocus());
    expect(add).toBeEnabled();
    expect(within(group).queryByText('At most 10')).toBeNull();
  });

  it('is usable with the keyboard: native controls in reading order, Enter adds, Space and Enter remove, focus follows', async () => {
    await api();
    const u = userEvent.setup();
    const dialog = await openAdd();
    const group = within(dialog).getByRole('group', { name: 'Redirect URIs' });
    /** the list's controls a Tab reaches, in document order (jsdom has no layout: the dialog's focus trap cannot tab) */
    const tabStops = (el: HTMLElement) =>
      [...el.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')].filter((c) => !c.disabled && c.tabIndex >= 0).map((c) => c.getAttribute('aria-label') ?? (c.labels?.[0]?.textContent || c.textContent));
    expect(tabStops(group)).toEqual(['Redirect URI 1', 'Add redirect URI']);
    // the post-logout list may be empty: it says so, and its add button is its only control
    const logout = within(dialog).getByRole('group', { name: 'Post-logout redirect URIs' });
    expect(logout).toHaveTextContent('None');
    expect(tabStops(logout)).toEqual(['Add post-logout redirect URI']);

    row(dialog, 'Redirect URI 1').focus();
    await u.keyboard('https://kb.example.com/cb');
    within(dialog).getByRole('button', { name: 'Add redirect URI' }).focus();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(row(dialog, 'Redirect URI 2')).toHaveFocus());
    await u.keyboard('https://kb.example.com/two');
    expect(tabStops(group)).toEqual(['Redirect URI 1', 'Remove redirect URI 1', 'Redirect URI 2', 'Remove redirect URI 2', 'Add redirect URI']);
    within(dialog).getByRole('button', { name: 'Remove redirect URI 1' }).focus();
    await u.keyboard(' ');
    // the row that took its place has the focus, with its value
    await waitFor(() => expect(row(dialog, 'Redirect URI 1')).toHaveFocus());
    expect(row(dialog, 'Redirect URI 1')).toHaveValue('https://kb.example.com/two');
    expect(tabStops(group)).toEqual(['Redirect URI 1', 'Add redirect URI']);

    // post-logout: add one by keyboard, remove it, the focus lands on its add button
    within(logout).getByRole('button', { name: 'Add post-logout redirect URI' }).focus();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(row(dialog, 'Post-logout redirect URI 1')).toHaveFocus());
    await u.keyboard('https://kb.example.com/');
    within(dialog).getByRole('button', { name: 'Remove post-logout redirect URI 1' }).focus();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(within(logout).getByRole('button', { name: 'Add post-logout redirect URI' })).toHaveFocus());
    expect(logout).toHaveTextContent('None');
    expect(rows(dialog, 'post-logout-uris')).toHaveLength(0);
  });

  it('checks each row on submit, the error beside its row; nothing is sent until every row passes', async () => {
    await api();
    const u = userEvent.setup();
    const dialog = await openAdd();
    await u.type(within(dialog).getByLabelText(/Display name/), 'Multi');
    await u.type(within(dialog).getByLabelText(/Client ID/), 'multi');
    const entries = ['', 'http://intranet.example.com/cb', 'https://a.example.com/cb#part', 'https://*.example.com/cb', 'https://a.example.com/ok', ' https://a.example.com/ok ', 'not a url', 'http://localhost:3000/cb'];
    for (let i = 1; i < entries.length; i++) await u.click(within(dialog).getByRole('button', { name: 'Add redirect URI' }));
    for (const [i, value] of entries.entries()) if (value) await u.type(row(dialog, `Redirect URI ${i + 1}`), value);
    await u.click(within(dialog).getByRole('button', { name: 'Add service app' }));
    const expected = [
      'Redirect URI 1 is required',
      'Use an https:// address (http:// only for localhost, 127.0.0.1 or ::1)',
      'Must not contain a fragment (#)',
      'Must not contain a wildcard (*): redirect URIs are compared exactly',
      undefined,
      'Is listed twice',
      'Redirect URI 7 is invalid',
      undefined,
    ];
    await waitFor(() => expect(row(dialog, 'Redirect URI 2')).toHaveAttribute('aria-invalid', 'true'));
    for (const [i, message] of expected.entries()) {
      const input = row(dialog, `Redirect URI ${i + 1}`);
      const item = input.closest('li') as HTMLElement;
      if (message) {
        expect(item, `row ${i + 1}`).toHaveTextContent(message);
        // Ark's field names its error text in aria-describedby once the text is mounted (an effect later)
        await waitFor(() => expect(input).toHaveAccessibleDescription(message));
      } else {
        expect(input, `row ${i + 1}`).not.toHaveAttribute('aria-invalid', 'true');
      }
    }
    expect(server?.requests.some((q) => q.method === 'POST')).toBe(false);
    // fixed: the rows that are left are sent trimmed, in their order
    for (const n of [7, 6, 4, 3, 2, 1]) await u.click(within(dialog).getByRole('button', { name: `Remove redirect URI ${n}` }));
    expect(rows(dialog, 'redirect-uris').map((i) => (i as HTMLInputElement).value)).toEqual(['https://a.example.com/ok', 'http://localhost:3000/cb']);
    await u.click(within(dialog).getByRole('button', { name: 'Add service app' }));
    expect(await sentBody('POST')).toMatchObject({ name: 'multi', redirect_uris: ['https://a.example.com/ok', 'http://localhost:3000/cb'], post_logout_redirect_uris: [] });
    expect(await sentBody('POST')).not.toHaveProperty('url');
  });

  it("shows the server's refusal of a row beside that row (German), no toast", async () => {
    await activateLocale('de');
    await api((req) =>
      req.method === 'POST' && req.path === '/api/admin/service-apps'
        ? { status: 422, body: { error: { code: 'validation_failed', message: 'x', fields: { 'redirect_uris.1': ['https_required'], 'post_logout_redirect_uris.0': ['too_long'] } } } }
        : undefined,
    );
    const u = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await u.click(await screen.findByRole('button', { name: 'Service-App hinzufügen' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Service-App hinzufügen' });
    await u.type(within(dialog).getByLabelText(/Anzeigename/), 'Zwei');
    await u.type(within(dialog).getByLabelText(/Client-ID/), 'zwei');
    await u.type(row(dialog, 'Weiterleitungs-URI 1'), 'https://z.example.com/cb');
    await u.click(within(dialog).getByRole('button', { name: 'Weiterleitungs-URI hinzufügen' }));
    await u.type(row(dialog, 'Weiterleitungs-URI 2'), 'https://z.example.com/zwei');
    await u.click(within(dialog).getByRole('button', { name: 'Weiterleitungs-URI nach der Abmeldung hinzufügen' }));
    await u.type(row(dialog, 'Weiterleitungs-URI nach der Abmeldung 1'), 'https://z.example.com/');
    await u.click(within(dialog).getByRole('button', { name: 'Service-App hinzufügen' }));
    await waitFor(() => expect(row(dialog, 'Weiterleitungs-URI 2')).toHaveAccessibleDescription('Verwenden Sie eine https://-Adresse (http:// nur für localhost, 127.0.0.1 oder ::1)'));
    await waitFor(() => expect(row(dialog, 'Weiterleitungs-URI nach der Abmeldung 1')).toHaveAccessibleDescription('Muss weniger als 2001 Zeichen lang sein'));
    expect(row(dialog, 'Weiterleitungs-URI 1')).not.toHaveAttribute('aria-invalid', 'true');
    expect(toasts).not.toHaveBeenCalled();
  });

  it('an app registered before the https rule keeps its plain-http URIs through an edit; a new one must follow the rule', async () => {
    await api();
    const u = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await u.click(await screen.findByRole('button', { name: 'Edit Intranet' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(row(dialog, 'Redirect URI 1')).toHaveValue('http://intranet.example.com/cb');
    expect(row(dialog, 'Post-logout redirect URI 1')).toHaveValue('http://intranet.example.com/');
    await u.click(within(dialog).getByRole('button', { name: 'Add redirect URI' }));
    await u.type(row(dialog, 'Redirect URI 2'), 'http://intranet.example.com/two');
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(row(dialog, 'Redirect URI 2')).toHaveAccessibleDescription('Use an https:// address (http:// only for localhost, 127.0.0.1 or ::1)'));
    expect(row(dialog, 'Redirect URI 1')).not.toHaveAttribute('aria-invalid', 'true');
    await u.clear(row(dialog, 'Redirect URI 2'));
    await u.type(row(dialog, 'Redirect URI 2'), 'https://intranet.example.com/two');
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await sentBody('PATCH')).toMatchObject({ redirect_uris: ['http://intranet.example.com/cb', 'https://intranet.example.com/two'], post_logout_redirect_uris: ['http://intranet.example.com/'] });
  });
});
