import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { AccountMenuContent } from '../../../components/account-menu-content';
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
      <AccountMenuContent />
    </Menu.Root>
  );
}
