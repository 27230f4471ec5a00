import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserSearch } from '../../src/features/admin/users/search';
import { UserManagement } from '../../src/features/admin/users/user-management';
import { activateLocale } from '../../src/lib/i18n';
import { account, startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/**
 * Issue 29: at 390 px the user list's five filter selects stood before its first row. Below md they fold into one
 * 'Filters' button (with the number of filters in use) that opens them in a bottom sheet; from md up they stay inline.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  vi.unstubAllGlobals();
  await activateLocale('en');
});

function viewport(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: narrow && query.includes('max-width: 767px'), media: query, addEventListener: () => {}, removeEventListener: () => {} }));
}

function usersApi() {
  return startAdminServer((req) => {
    if (req.path === '/api/admin/users') return { body: { data: [account(1), account(2)], meta: { page: 1, size: 10, total: 2 } } };
    if (req.path === '/api/admin/roles') return { body: { data: [{ id: 'r1', name: 'APP_ADMIN', description: '', created_at: '', updated_at: '' }], meta: { page: 1, size: 100, total: 1 } } };
    return undefined;
  });
}

function Harness({ initial, changes }: { initial: UserSearch; changes: UserSearch[] }) {
  const [search, setSearch] = useState<UserSearch>(initial);
  return (
    <UserManagement
      search={search}
      onSearchChange={(next) => {
        setSearch(next);
        changes.push(next);
      }}
    />
  );
}

const FILTERS = ['Status', 'Technical', 'Auth type', 'Role', 'Language'];

describe('user list filters on a phone', () => {
  it('below md: one Filters button with the active count; the sheet holds the five filters, applies and clears them', { timeout: 60_000 }, async () => {
    viewport(true);
    server = await usersApi();
    const user = userEvent.setup();
    const changes: UserSearch[] = [];
    await renderWithRouter(() => <Harness initial={{ status: 'ACTIVE', locale: 'de' }} changes={changes} />, '/admin/user-management');
    const button = await screen.findByRole('button', { name: /^Filters\s*\(2 active\)$/ });
    expect(within(button).getByTestId('user-filters-count')).toHaveTextContent('2');
    // no filter select before the list
    for (const name of FILTERS) expect(screen.queryByRole('combobox', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toBeInTheDocument();

    await user.click(button);
    const sheet = await screen.findByRole('dialog', { name: 'Filters' });
    expect(sheet).toHaveAttribute('data-sheet');
    for (const name of FILTERS) expect(within(sheet).getByRole('combobox', { name })).toBeInTheDocument();
    await user.click(within(sheet).getByRole('combobox', { name: 'Auth type' }));
    // the select's list is portalled beside the modal sheet (jsdom sees it aria-hidden; Chromium: e2e/issue29-spa.spec.ts)
    await user.click((await screen.findAllByRole('option', { name: 'SSO', hidden: true })).find((el) => el.tagName !== 'OPTION')!);
    await waitFor(() => expect(changes.at(-1)).toMatchObject({ status: 'ACTIVE', locale: 'de', auth_type: 'SSO' }));
    await user.click(within(sheet).getByRole('button', { name: 'Show users' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: /^Filters\s*\(3 active\)$/ })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Filters\s*\(3 active\)$/ }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Filters' })).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(changes.at(-1)).toMatchObject({ status: undefined, locale: undefined, auth_type: undefined }));
    // the sheet stays open; the button behind it no longer shows a count
    await waitFor(() => expect(screen.queryByTestId('user-filters-count')).not.toBeInTheDocument());
  });

  it('from md up: the filters inline, no Filters button', { timeout: 60_000 }, async () => {
    viewport(false);
    server = await usersApi();
    await renderWithRouter(() => <Harness initial={{}} changes={[]} />, '/admin/user-management');
    for (const name of FILTERS) expect(await screen.findByRole('combobox', { name })).toBeInTheDocument();
    expect(screen.queryByTestId('user-filters-button')).not.toBeInTheDocument();
  });

  it('German: the button and the sheet are translated', { timeout: 60_000 }, async () => {
    await activateLocale('de');
    viewport(true);
    server = await usersApi();
    const user = userEvent.setup();
    await renderWithRouter(() => <Harness initial={{ status: 'ACTIVE' }} changes={[]} />, '/admin/user-management');
    await user.click(await screen.findByRole('button', { name: /^Filter\s*\(1 aktiv\)$/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Filter' });
    expect(within(sheet).getByRole('button', { name: 'Benutzer anzeigen' })).toBeInTheDocument();
  });
});
