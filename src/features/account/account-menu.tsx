import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { currentUserQueryOptions } from '../../api/account';
import { AccountMenuContent } from '../../components/account-menu-content';
import { ChevronDownIcon } from '../../components/ui/icons';
import * as Menu from '../../components/ui/menu';
import { UserAvatar } from '../../components/ui/user-avatar';
import { useLogout } from '../../lib/session-context';

/** User area header menu: Home, Profile, Logout (the same word as the admin menu, docs/SPEC.md §2). */
export function AccountMenu() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const logout = useLogout();
  const user = useQuery(currentUserQueryOptions()).data?.auth_user;
  const name = user ? `${user.first_name} ${user.last_name}`.trim() || user.email : '';
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      onSelect={(details) => {
        if (details.value === 'home') void navigate({ to: '/' });
        if (details.value === 'profile') void navigate({ to: '/profile' });
        if (details.value === 'logout') logout();
      }}
    >
      <Menu.Trigger
        aria-label={t`Account menu`}
        data-testid="account-menu"
        className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', bg: 'transparent', borderRadius: 'full', p: '1', pe: '2', cursor: 'pointer', _hover: { bg: 'bg.subtle' } })}
      >
        <UserAvatar name={name} src={user?.avatar_url} size="sm" />
        {name ? <span className={css({ fontSize: 'sm', fontWeight: 'medium', display: { base: 'none', md: 'inline' } })}>{name}</span> : null}
        <ChevronDownIcon width={16} height={16} />
      </Menu.Trigger>
      <AccountMenuContent>
        <Menu.Item value="home">{t`Home`}</Menu.Item>
      </AccountMenuContent>
    </Menu.Root>
  );
}
