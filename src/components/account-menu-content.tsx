import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { LogOutIcon, UserIcon } from './ui/icons-more';
import * as Menu from './ui/menu';

/**
 * The list of a header account menu (the user area's and the console's): the area's own items first (the user area's
 * Home), then Profile and Logout (the same words in both, docs/SPEC.md §2). The menu's onSelect gets `profile` and
 * `logout`.
 */
export function AccountMenuContent({ children }: { children?: ReactNode }) {
  const { t } = useLingui();
  return (
    <Menu.Positioner>
      <Menu.Content>
        {children}
        <Menu.Item value="profile">
          <UserIcon width={16} height={16} />
          {t`Profile`}
        </Menu.Item>
        <Menu.Separator />
        <Menu.Item value="logout">
          <LogOutIcon width={16} height={16} />
          {t`Logout`}
        </Menu.Item>
      </Menu.Content>
    </Menu.Positioner>
  );
}
