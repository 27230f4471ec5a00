import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LOGGED_ERROR_CODES } from '../../contract/admin/log-codes';
import { Dashboard } from '../../src/features/admin/dashboard/dashboard';
import { loggedErrorText } from '../../src/features/admin/components/feedback';
import { errorCodeOptions } from '../../src/features/admin/dashboard/error-codes/labels';
import type { DashboardSearch } from '../../src/features/admin/dashboard/search';
import { activateLocale, i18n } from '../../src/lib/i18n';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/**
 * Issue 29: the dashboard's error-code filter listed ~60 raw snake_case codes. It offers every logged code in words,
 * in the admin's language, sorted by those words; the value (and the URL's e_code) stays the code.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await activateLocale('en');
});

const snake = /^[a-z]+(_[a-z]+)+$/;

describe('error-code filter: codes in words', () => {
  it.each(['en', 'de', 'fr', 'it'] as const)('%s: one label per logged code, none a code, sorted by the language', async (locale) => {
    await activateLocale(locale);
    const options = errorCodeOptions(i18n, (code) => loggedErrorText(i18n, code));
    expect(options.map((o) => o.value).sort()).toEqual([...LOGGED_ERROR_CODES].sort());
    for (const option of options) expect(option.label).not.toMatch(snake);
    expect(new Set(options.map((o) => o.label)).size).toBe(options.length);
    const collator = new Intl.Collator(locale, { sensitivity: 'base' });
    expect(options.map((o) => o.label)).toEqual([...options.map((o) => o.label)].sort(collator.compare));
  });

  it('German: the labels are German (not the English words)', async () => {
    await activateLocale('en');
    const english = new Map(errorCodeOptions(i18n, (code) => loggedErrorText(i18n, code)).map((o) => [o.value, o.label]));
    await activateLocale('de');
    const german = errorCodeOptions(i18n, (code) => loggedErrorText(i18n, code));
    expect(german.find((o) => o.value === 'invalid_grant')?.label).toBe('Ungültige oder abgelaufene Berechtigung');
    // most labels differ from the English ones (a few words such as 'SMS' are the same in both)
    expect(german.filter((o) => o.label === english.get(o.value)).length).toBeLessThan(3);
  });

  it('the dashboard select shows the German words and sets the code', { timeout: 60_000 }, async () => {
    await activateLocale('de');
    server = await startAdminServer((req) => {
      if (req.path === '/api/admin/logs/activities') return { body: { data: [], meta: { page: 1, size: 10, total: 0 } } };
      if (req.path === '/api/admin/logs/activities/daily') return { body: { data: [] } };
      if (req.path === '/api/admin/logs/errors') return { body: { data: [], meta: { page: 1, size: 10, total: 0 } } };
      return undefined;
    });
    const changes: DashboardSearch[] = [];
    const user = userEvent.setup();
    await renderWithRouter(() => <Dashboard search={{}} onSearchChange={(s) => changes.push(s)} />, '/admin/dashboard');
    await user.click(await screen.findByRole('combobox', { name: 'Fehlercode' }, { timeout: 20_000 }));
    const list = await screen.findByRole('listbox', {}, { timeout: 10_000 });
    const names = within(list)
      .getAllByRole('option')
      .map((o) => o.textContent ?? '');
    expect(names[0]).toBe('Alle Fehlercodes');
    expect(names).toHaveLength(LOGGED_ERROR_CODES.length + 1);
    for (const name of names) expect(name).not.toMatch(snake);
    await user.click(within(list).getByRole('option', { name: 'Zu viele Fehlversuche: Das Konto wurde gesperrt' }));
    await waitFor(() => expect(changes.at(-1)?.e_code).toBe('account_locked'));
  });
});
