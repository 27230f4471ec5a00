import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserSearch } from '../../src/features/admin/users/search';
import { UserManagement } from '../../src/features/admin/users/user-management';
import { account, startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function usersApi(total: number) {
  return startAdminServer((req) => {
    if (req.path === '/api/admin/users') {
      const page = Number(req.query.get('page') ?? 1);
      const size = Number(req.query.get('size') ?? 10);
      const search = req.query.get('search');
      const matching = search === 'nobody' ? 0 : total;
      const start = (page - 1) * size;
      const data = Array.from({ length: Math.max(0, Math.min(size, matching - start)) }, (_, i) => account(start + i + 1));
      return { body: { data, meta: { page, size, total: matching } } };
    }
    if (req.path === '/api/admin/roles') return { body: { data: [{ id: 'r1', name: 'APP_ADMIN', description: '', created_at: '', updated_at: '' }], meta: { page: 1, size: 100, total: 1 } } };
    return undefined;
  });
}

function Harness({ initial = {} as UserSearch, onChange }: { initial?: UserSearch; onChange?: (s: UserSearch) => void }) {
  const [search, setSearch] = useState<UserSearch>(initial);
  return (
    <UserManagement
      search={search}
      onSearchChange={(next) => {
        setSearch(next);
        onChange?.(next);
      }}
    />
  );
}

const listCalls = () => (server?.requests ?? []).filter((r) => r.path === '/api/admin/users');

describe('admin user management', () => {
  it('shows a lower-bound total as "10,000+", counts exactly on demand, and pages next/previous by cursor', async () => {
    server = await startAdminServer((req) => {
      if (req.path !== '/api/admin/users') return undefined;
      const page = Number(req.query.get('page') ?? 1);
      const exact = req.query.get('count') === 'exact';
      const data = Array.from({ length: 10 }, (_, i) => account((page - 1) * 10 + i + 1));
      const meta = exact
        ? { page, size: 10, total: 123456, total_is_lower_bound: false }
        : { page, size: 10, total: 10000, total_is_lower_bound: true };
      return { body: { data, meta: { ...meta, next_cursor: `next-of-${page}`, prev_cursor: page > 1 ? `prev-of-${page}` : null } } };
    });
    const user = userEvent.setup();
    const changes: UserSearch[] = [];
    await renderWithRouter(() => <Harness initial={{ search: 'ann' }} onChange={(s) => changes.push(s)} />, '/admin/user-management');

    expect(await screen.findByText('10,000+ users match')).toBeInTheDocument();
    expect(screen.getByText('1 - 10 of 10,000+ items')).toBeInTheDocument();
    // the page count is a lower bound too: no page is announced as the last one, and a marker follows the last button
    expect(screen.getByRole('button', { name: 'Page 1,000 of 1,000+' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /of 1,000$/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('pagination-more')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('cursor')).toBe('next-of-1'));
    expect(listCalls().at(-1)?.query.get('page')).toBe('2');
    expect(await screen.findByText('11 - 20 of 10,000+ items')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /previous page/i }));
    // page 1 goes by offset (as cheap as a cursor), without a cursor in the URL
    await waitFor(() => expect(changes.at(-1)).toMatchObject({ page: undefined, cursor: undefined }));
    expect(await screen.findByText('1 - 10 of 10,000+ items')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Count exactly' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('count')).toBe('exact'));
    expect(await screen.findByText('123,456 users match')).toBeInTheDocument();
    expect(screen.getByText('1 - 10 of 123,456 items')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 12,346 of 12,346' })).toBeInTheDocument();
    expect(screen.queryByTestId('pagination-more')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Count exactly' })).not.toBeInTheDocument();

    // a new filter counts bounded again
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('status')).toBe('INACTIVE'));
    expect(listCalls().at(-1)?.query.get('count')).toBeNull();
    expect(await screen.findByText('10,000+ users match')).toBeInTheDocument();
  });

  it("shows 'from - to of total items' and pages through the server", async () => {
    server = await usersApi(25);
    const user = userEvent.setup();
    await renderWithRouter(() => <Harness />, '/admin/user-management');

    expect(await screen.findByText('1 - 10 of 25 items')).toBeInTheDocument();
    expect(screen.getAllByTestId('user-row')).toHaveLength(10);
    expect(listCalls()[0]?.query.get('page')).toBe('1');
    expect(listCalls()[0]?.query.get('size')).toBe('10');

    await user.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('11 - 20 of 25 items')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('21 - 25 of 25 items')).toBeInTheDocument();
    expect(screen.getAllByTestId('user-row')).toHaveLength(5);
    expect(listCalls().at(-1)?.query.get('page')).toBe('3');
  });

  it('sends filters and the debounced search as query params and resets the page', async () => {
    server = await usersApi(40);
    const user = userEvent.setup();
    const changes: UserSearch[] = [];
    await renderWithRouter(() => <Harness initial={{ page: 2 }} onChange={(s) => changes.push(s)} />, '/admin/user-management');
    expect(await screen.findByText('11 - 20 of 40 items')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('status')).toBe('INACTIVE'));
    expect(listCalls().at(-1)?.query.get('page')).toBe('1');

    await user.click(screen.getByRole('combobox', { name: 'Auth type' }));
    await user.click(await screen.findByRole('option', { name: 'SSO' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('auth_type')).toBe('SSO'));

    await user.click(screen.getByRole('combobox', { name: 'Technical' }));
    await user.click(await screen.findByRole('option', { name: 'Technical users' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('technical')).toBe('true'));

    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'APP_ADMIN' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('role')).toBe('r1'));

    await user.click(screen.getByRole('combobox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'German' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('locale')).toBe('de'));

    const before = listCalls().length;
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    await waitFor(() => expect(listCalls().at(-1)?.query.get('search')).toBe('nobody'));
    // debounced: one request for the whole word, not one per key
    expect(listCalls().length - before).toBe(1);
    expect(await screen.findByText('No results for given search')).toBeInTheDocument();
    expect(changes.at(-1)).toMatchObject({ status: 'INACTIVE', auth_type: 'SSO', technical: true, role: 'r1', locale: 'de', search: 'nobody', page: undefined });
  });

  it('changes the page size through the items-per-page select', async () => {
    server = await usersApi(60);
    const user = userEvent.setup();
    await renderWithRouter(() => <Harness />, '/admin/user-management');
    expect(await screen.findByText('1 - 10 of 60 items')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Items per page' }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    expect(await screen.findByText('1 - 25 of 60 items')).toBeInTheDocument();
    expect(listCalls().at(-1)?.query.get('size')).toBe('25');
    const table = screen.getByRole('region', { name: 'Users' });
    expect(within(table).getAllByTestId('user-row')).toHaveLength(25);
  });

  it('shows one state per user (Invited, Active, Inactive) and filters by Invited', async () => {
    server = await startAdminServer((req) => {
      if (req.path !== '/api/admin/users') return undefined;
      const data = [
        account(1, { email_verified: false, has_password: false }),
        account(2),
        account(3, { status: 'INACTIVE', email_verified: false, has_password: false }),
      ];
      return { body: { data, meta: { page: 1, size: 10, total: 3 } } };
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <Harness />, '/admin/user-management');
    const rows = await screen.findAllByTestId('user-row');
    const stateOf = (row: HTMLElement) => within(row).getAllByText(/^(Invited|Active|Inactive)$/).map((e) => e.textContent);
    expect(rows.map(stateOf)).toEqual([['Invited'], ['Active'], ['Inactive']]);
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Invited' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('status')).toBe('INVITED'));
  });

  it('sorts on the server by a column header and announces the order with aria-sort', async () => {
    server = await usersApi(5);
    const user = userEvent.setup();
    const changes: UserSearch[] = [];
    await renderWithRouter(() => <Harness onChange={(s) => changes.push(s)} />, '/admin/user-management');
    await screen.findAllByTestId('user-row');
    const created = screen.getByRole('columnheader', { name: 'Created' });
    expect(created).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('sort')).toBe('name'));
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(listCalls().at(-1)?.query.get('sort')).toBe('-name'));
    expect(changes.at(-1)).toMatchObject({ sort: '-name' });
  });

  it('applies a bulk action to the selected users and shows the outcome of each row', async () => {
    server = await startAdminServer((req) => {
      if (req.path === '/api/admin/users') return { body: { data: [account(1), account(2), account(3)], meta: { page: 1, size: 10, total: 3 } } };
      if (req.path === '/api/admin/users/bulk') {
        const ids = (JSON.parse(req.body) as { ids: string[] }).ids;
        return { body: { data: { results: ids.map((id, i) => ({ id, ok: i === 0, code: i === 0 ? null : 'user_not_found' })), succeeded: 1, failed: ids.length - 1 } } };
      }
      return undefined;
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <Harness />, '/admin/user-management');
    await screen.findAllByTestId('user-row');
    await user.click(screen.getByRole('checkbox', { name: 'Select user1@example.com' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select user3@example.com' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Bulk action' }));
    await user.click(await screen.findByRole('option', { name: 'Deactivate' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(server?.requests.find((r) => r.path === '/api/admin/users/bulk')).toBeDefined());
    expect(JSON.parse(server.requests.find((r) => r.path === '/api/admin/users/bulk')?.body ?? '{}')).toEqual({ action: 'deactivate', ids: [account(1).id, account(3).id] });
    expect(await screen.findByText('2 of 2 done')).toBeInTheDocument();
    const results = screen.getByTestId('bulk-results');
    expect(within(results).getByText(/user1@example.com: Done/)).toBeInTheDocument();
    expect(within(results).getByText(/user3@example.com:/)).toHaveAttribute('data-ok', 'false');
  });
});

/** A router whose navigations commit late (its guards still running): the page keeps the params it rendered with. */
function SlowRouterHarness({ initial, changes }: { initial: UserSearch; changes: UserSearch[] }) {
  const [search, setSearch] = useState<UserSearch>(initial);
  return (
    <UserManagement
      search={search}
      onSearchChange={(next) => {
        changes.push(next);
        setTimeout(() => setSearch(next), 1_000);
      }}
    />
  );
}

describe('user list: changes made while a navigation is on its way', () => {
  it('clearing the search and picking a filter within the search box pause keeps both (the filter was lost)', { timeout: 30_000 }, async () => {
    server = await usersApi(5);
    const changes: UserSearch[] = [];
    const user = userEvent.setup();
    await renderWithRouter(() => <SlowRouterHarness initial={{ search: 'grace' }} changes={changes} />, '/admin/user-management');
    await screen.findAllByTestId('user-row');
    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.click(screen.getByRole('combobox', { name: 'Technical' }));
    await user.click(await screen.findByRole('option', { name: 'Technical users' }));
    // both changes were asked for before the slow router delivered either: the last one asked for holds both, in
    // whichever order they came (search box after its 300 ms pause, or the filter first)
    await waitFor(() => expect(changes.length).toBe(2), { timeout: 5_000 });
    expect(changes.at(-1)).toMatchObject({ technical: true });
    expect(changes.at(-1)?.search).toBeUndefined();
  });
});
