import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UserMenu } from '../../src/features/admin/shell/user-menu';
import type { CurrentAdmin } from '../../src/lib/current-admin';
import { renderWithRouter } from './render';

const ADMIN: CurrentAdmin = { id: 'a1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', role: 'super_admin', avatar: null };

describe('admin header menu', () => {
  it('shows the admin while the menu code loads (not in the first load), then the menu works', async () => {
    const user = userEvent.setup();
    let loggedOut = 0;
    await renderWithRouter(() => <UserMenu admin={ADMIN} onLogout={() => (loggedOut += 1)} />);
    // React.lazy suspends on its first render: an inert copy of the trigger (this test is the file's first render)
    const placeholder = screen.getByTestId('user-menu-placeholder');
    expect(placeholder).toHaveTextContent('Ada Lovelace');
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');

    const trigger = await screen.findByRole('button', { name: 'Account menu' });
    expect(trigger).toHaveTextContent('Ada Lovelace');
    expect(screen.queryByTestId('user-menu-placeholder')).not.toBeInTheDocument();
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(loggedOut).toBe(1);
  });
});
