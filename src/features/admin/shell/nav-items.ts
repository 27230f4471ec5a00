import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType, SVGProps } from 'react';
import { LockIcon } from '../../../components/ui/icons';
import { AppsIcon, DashboardIcon, KeyIcon, LayersIcon, ShieldIcon, UsersIcon } from '../../../components/ui/icons-more';
import type { AdminRole } from '../../../lib/current-admin';
import { requiredAdminRoles } from '../../../lib/guards';

export type AdminNavPath =
  | '/admin/dashboard'
  | '/admin/admin-management'
  | '/admin/user-management'
  | '/admin/roles'
  | '/admin/service-apps'
  | '/admin/subscriptions'
  | '/admin/settings';

export interface AdminNavItem {
  to: AdminNavPath;
  label: MessageDescriptor;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}

/** docs/SPEC.md §2 sidebar items; who sees one is who may open it (src/lib/guards.ts requiredAdminRoles). */
export const ADMIN_NAV_ITEMS: readonly AdminNavItem[] = [
  { to: '/admin/dashboard', label: msg`Dashboard`, icon: DashboardIcon },
  { to: '/admin/admin-management', label: msg`Admin management`, icon: ShieldIcon },
  { to: '/admin/user-management', label: msg`User management`, icon: UsersIcon },
  { to: '/admin/roles', label: msg`Roles`, icon: KeyIcon },
  { to: '/admin/service-apps', label: msg`Service apps`, icon: AppsIcon },
  { to: '/admin/subscriptions', label: msg`Subscriptions`, icon: LayersIcon },
  // the sign-in security settings (second factor, passkeys): the lock the entry already carries, no icon of its own
  { to: '/admin/settings', label: msg`Settings`, icon: LockIcon },
];

export function navItemsForRole(role: AdminRole | null | undefined): AdminNavItem[] {
  if (!role) return [];
  return ADMIN_NAV_ITEMS.filter((item) => requiredAdminRoles(item.to).includes(role));
}
