import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountMenu } from '../../src/features/account/account-menu';
import { UserMenu } from '../../src/features/admin/shell/user-menu';
import { activateLocale } from '../../src/lib/i18n';
import { renderWithRouter } from './render';

afterEach(async () => {
  await activateLocale('en');
});

/** The sign-out item of both header menus: one word everywhere (issue 14: 'Logout' in the admin menu, 'Sign out' in the user menu). */
describe('header menus', () => {
  it.each(['en', 'de', 'fr', 'it'])('name sign-out the same in the admin and the user menu (%s)', async (lang) => {
    await activateLocale(lang);
    const user = userEvent.setup();
    await renderWithRouter(() => (
      <>
        <div data-testid="admin">
          <UserMenu admin={null} onLogout={() => undefined} />
        </div>
        <div data-testid="user">
          <AccountMenu />
        </div>
      </>
    ));
    const itemsOf = async (area: string) => {
      await user.click(await within(screen.getByTestId(area)).findByRole('button'));
      const items = await screen.findAllByRole('menuitem');
      const texts = items.map((i) => i.textContent?.trim() ?? '');
      await user.keyboard('{Escape}');
      return texts.at(-1);
    };
    const admin = await itemsOf('admin');
    const account = await itemsOf('user');
    expect(account).toBe(admin);
    if (lang === 'en') expect(admin).toBe('Logout');
  });
});
