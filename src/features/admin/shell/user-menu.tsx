import { lazy, Suspense } from 'react';
import { css } from 'styled-system/css';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { UserAvatar } from '../../../components/ui/user-avatar';
import type { CurrentAdmin } from '../../../lib/current-admin';

export interface UserMenuProps {
  admin: CurrentAdmin | null;
  onLogout: () => void;
}

// The menu (Ark UI / zag menu machine) is not needed for the shell's first paint: it loads right after it; until
// then its trigger's content shows, inert.
const AdminAccountMenu = lazy(() => import('./admin-account-menu').then((module) => ({ default: module.AdminAccountMenu })));

export const triggerClass = css({ display: 'inline-flex', alignItems: 'center', gap: '2', bg: 'transparent', borderRadius: 'full', p: '1', pe: '2', _hover: { bg: 'bg.subtle' } });

export function adminName(admin: CurrentAdmin | null): string {
  return admin ? `${admin.first_name} ${admin.last_name}`.trim() || admin.email : '';
}

/**
 * What the menu's trigger shows: the admin's avatar, and the name from 1024 px on. Between 768 and 1023 px the sidebar
 * leaves the header about 512 px: with the name the header's toast lane (components/ui/toast-lane.ts) fell under its
 * 288 px and toasts went to the bottom of the screen, over the page's controls (e2e/screens.spec.ts, issue 14).
 * The trigger's accessible name is 'Account menu' at every width.
 */
export function TriggerContent({ admin }: { admin: CurrentAdmin | null }) {
  const name = adminName(admin);
  return (
    <>
      <UserAvatar name={name} src={admin?.avatar} size="sm" />
      {name ? <span className={css({ fontSize: 'sm', fontWeight: 'medium', display: { base: 'none', lg: 'inline' } })}>{name}</span> : null}
      <ChevronDownIcon width={16} height={16} />
    </>
  );
}

/** Header account menu: Profile, Logout. */
export function UserMenu(props: UserMenuProps) {
  return (
    <Suspense
      fallback={
        <span className={triggerClass} data-testid="user-menu-placeholder" aria-hidden="true">
          <TriggerContent admin={props.admin} />
        </span>
      }
    >
      <AdminAccountMenu {...props} />
    </Suspense>
  );
}
