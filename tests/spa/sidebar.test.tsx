import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AdminShell } from '../../src/features/admin/shell/admin-shell';
import { navItemsForRole } from '../../src/features/admin/shell/nav-items';
import { Sidebar } from '../../src/features/admin/shell/sidebar';
import { renderWithRouter } from './render';

function navLinks() {
  const nav = screen.getByRole('navigation', { name: 'Main navigation' });
  return within(nav)
    .queryAllByRole('link')
    .map((link) => link.textContent);
}

describe('admin sidebar', () => {
  it('shows every item to a super_admin', async () => {
    await renderWithRouter(() => <Sidebar role="super_admin" collapsed={false} onToggle={() => {}} />);
    expect(navLinks()).toEqual(['Dashboard', 'Admin management', 'User management', 'Roles', 'Service apps', 'Subscriptions', 'Settings']);
  });

  it('shows only dashboard and user management to a manager', async () => {
    await renderWithRouter(() => <Sidebar role="manager" collapsed={false} onToggle={() => {}} />);
    expect(navLinks()).toEqual(['Dashboard', 'User management']);
  });

  it('links "Settings" (the second-factor requirement, GET/PUT /api/admin/settings/second-factor: super_admin) for a super_admin only', async () => {
    expect(navItemsForRole('super_admin').map((item) => item.to)).toContain('/admin/settings');
    expect(navItemsForRole('manager').map((item) => item.to)).not.toContain('/admin/settings');
    await renderWithRouter(() => <Sidebar role="super_admin" collapsed={false} onToggle={() => {}} />, '/admin/settings');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/admin/settings');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows no items without a role', async () => {
    expect(navItemsForRole(null)).toEqual([]);
    await renderWithRouter(() => <Sidebar role={null} collapsed={false} onToggle={() => {}} />);
    expect(navLinks()).toEqual([]);
  });

  it('marks the current page', async () => {
    await renderWithRouter(() => <Sidebar role="manager" collapsed={false} onToggle={() => {}} />, '/admin/user-management');
    expect(screen.getByRole('link', { name: 'User management' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });
});

describe('admin shell sidebar collapse', () => {
  it('persists the collapsed state in localStorage and restores it', async () => {
    const user = userEvent.setup();
    const first = await renderWithRouter(() => <AdminShell>content</AdminShell>);
    const toggle = screen.getByRole('button', { name: 'Collapse sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('admin-sidebar')).toHaveStyle({ width: '256px' });

    await user.click(toggle);
    expect(window.localStorage.getItem('sidebar')).toBe('closed');
    const expand = screen.getByRole('button', { name: 'Expand sidebar' });
    expect(expand).toHaveAttribute('aria-expanded', 'false');
    first.unmount();

    await renderWithRouter(() => <AdminShell>content</AdminShell>);
    const sidebar = document.getElementById('admin-sidebar');
    expect(sidebar).toHaveAttribute('data-state', 'closed');
    expect(sidebar).toHaveStyle({ width: '80px' });
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('expands over the content on hover while collapsed', async () => {
    window.localStorage.setItem('sidebar', 'closed');
    const user = userEvent.setup();
    await renderWithRouter(() => <AdminShell>content</AdminShell>);
    const sidebar = document.getElementById('admin-sidebar')!;
    expect(sidebar).toHaveStyle({ width: '80px' });
    await user.hover(sidebar);
    expect(sidebar).toHaveStyle({ width: '256px' });
    await act(async () => {
      await user.unhover(sidebar);
    });
    expect(sidebar).toHaveStyle({ width: '80px' });
    expect(window.localStorage.getItem('sidebar')).toBe('closed');
  });

  it('shows the localized panel title', async () => {
    await renderWithRouter(() => <AdminShell>content</AdminShell>);
    expect(screen.getByText('Admin panel')).toBeInTheDocument();
  });
});
