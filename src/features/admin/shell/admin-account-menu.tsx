import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { LogOutIcon, UserIcon } from '../../../components/ui/icons-more';
import * as Menu from '../../../components/ui/menu';
import { TriggerContent, triggerClass, type UserMenuProps } from './user-menu';

/** The header account menu itself (its own chunk, see ./user-menu.tsx): Profile, Logout. */
export function AdminAccountMenu({ admin, onLogout }: UserMenuProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      onSelect={(details) => {
        if (details.value === 'profile') void navigate({ to: '/admin/profile' });
        if (details.value === 'logout') onLogout();
      }}
    >
      <Menu.Trigger aria-label={t`Account menu`} className={triggerClass}>
        <TriggerContent admin={admin} />
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content>
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
    </Menu.Root>
  );
}
