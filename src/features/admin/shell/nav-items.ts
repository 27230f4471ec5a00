import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType, SVGProps } from 'react';
import { AppsIcon, DashboardIcon, KeyIcon, LayersIcon, ShieldIcon, UsersIcon } from '../../../components/ui/icons-more';
import type { AdminRole } from '../../../lib/current-admin';

export type AdminNavPath =
  | '/admin/dashboard'
  | '/admin/admin-management'
  | '/admin/user-management'
  | '/admin/roles'
  | '/admin/service-apps'
  | '/admin/subscriptions';

export interface AdminNavItem {
  to: AdminNavPath;
  label: MessageDescriptor;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  roles: readonly AdminRole[];
}

/** docs/SPEC.md §2 sidebar items and the roles that see them. */
export const ADMIN_NAV_ITEMS: readonly AdminNavItem[] = [
  { to: '/admin/dashboard', label: msg`Dashboard`, icon: DashboardIcon, roles: ['super_admin', 'manager'] },
  { to: '/admin/admin-management', label: msg`Admin management`, icon: ShieldIcon, roles: ['super_admin'] },
  { to: '/admin/user-management', label: msg`User management`, icon: UsersIcon, roles: ['super_admin', 'manager'] },
  { to: '/admin/roles', label: msg`Roles`, icon: KeyIcon, roles: ['super_admin'] },
  { to: '/admin/service-apps', label: msg`Service apps`, icon: AppsIcon, roles: ['super_admin'] },
  { to: '/admin/subscriptions', label: msg`Subscriptions`, icon: LayersIcon, roles: ['super_admin'] },
];

export function navItemsForRole(role: AdminRole | null | undefined): AdminNavItem[] {
  if (!role) return [];
  return ADMIN_NAV_ITEMS.filter((item) => item.roles.includes(role));
}
