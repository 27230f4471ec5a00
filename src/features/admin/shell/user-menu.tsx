import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { ChevronDownIcon, LogOutIcon, UserIcon } from '../../../components/ui/icons';
import * as Menu from '../../../components/ui/menu';
import { UserAvatar } from '../../../components/ui/user-avatar';
import type { CurrentAdmin } from '../../../lib/current-admin';

export interface UserMenuProps {
  admin: CurrentAdmin | null;
  onLogout: () => void;
}

/** Header account menu: Profile, Logout. */
export function UserMenu({ admin, onLogout }: UserMenuProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const name = admin ? `${admin.first_name} ${admin.last_name}`.trim() || admin.email : '';
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      onSelect={(details) => {
        if (details.value === 'profile') void navigate({ to: '/admin/profile' });
        if (details.value === 'logout') onLogout();
      }}
    >
      <Menu.Trigger
        aria-label={t`Account menu`}
        className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', bg: 'transparent', borderRadius: 'full', p: '1', pe: '2', _hover: { bg: 'bg.subtle' } })}
      >
        <UserAvatar name={name} src={admin?.avatar} size="sm" />
        {name ? <span className={css({ fontSize: 'sm', fontWeight: 'medium', display: { base: 'none', md: 'inline' } })}>{name}</span> : null}
        <ChevronDownIcon width={16} height={16} />
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
