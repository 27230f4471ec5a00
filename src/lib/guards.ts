/**
 * Route guards of docs/SPEC.md §2 "Access areas", called from the pathless layouts'
 * `beforeLoad` (`_public`, `_user`, `admin/_public`, `admin/_shell`).
 * They only send events to the session actor and read its tags through the
 * selectors of machines/session.machine.ts: they wait until it leaves its
 * 'loading' tag (refresh, sign-in, sign-out in progress) and decide from
 * `selectSessionKind`. They never read storage or the state value.
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import type { AppPath } from '../../machines/navigation';
import { selectIsSettled, selectSessionKind, type SessionKind } from '../../machines/session.machine';
import type { AdminRole } from '../../contract/domain/admin-roles';
import { currentAdminQueryOptions } from '../api/account';
import type { SessionHandle } from './router-context';

export interface GuardContext {
  session: SessionHandle;
  queryClient: QueryClient;
}
export interface GuardLocation {
  pathname: string;
  /** Path + search + hash, e.g. `/profile?tab=security`. */
  href: string;
  search: Record<string, unknown>;
}

export type { SessionKind };

/** Resolves once the session is settled (no `loading` tag); 'guest' | 'user' | 'admin'. */
export async function settledSession(session: SessionHandle): Promise<SessionKind> {
  const snapshot = await waitFor(session, selectIsSettled, { timeout: 30_000 }).catch(() => session.getSnapshot());
  return selectSessionKind(snapshot);
}

/** Admin pages only super_admin may open (docs/SPEC.md §2 sidebar, §6); the sidebar shows them by the same list. */
export const SUPER_ADMIN_PATHS: readonly AppPath[] = ['/admin/admin-management', '/admin/roles', '/admin/service-apps', '/admin/subscriptions', '/admin/settings'];

/** The roles that may open an admin page: every admin role (contract/domain/admin-roles.ts), or super_admin alone. */
export function requiredAdminRoles(pathname: string): readonly AdminRole[] {
  const path = pathname.replace(/\/+$/, '');
  return SUPER_ADMIN_PATHS.some((p) => path === p || path.startsWith(`${p}/`)) ? ['super_admin'] : ['super_admin', 'manager'];
}

/** Admin area: a signed-in admin (else /admin/login), a non-admin → /404, role per page (manager → /404). */
export async function guardAdminArea({ context, location }: { context: GuardContext; location: GuardLocation }): Promise<void> {
  const kind = await settledSession(context.session);
  if (kind === 'guest') throw redirect({ to: '/admin/login', replace: true });
  if (kind !== 'admin') throw redirect({ to: '/404', replace: true });
  const roles = requiredAdminRoles(location.pathname);
  if (roles.includes('manager')) return;
  const admin = await context.queryClient.ensureQueryData(currentAdminQueryOptions());
  const role = admin.auth_user.role;
  if (!role || !roles.includes(role)) throw redirect({ to: '/404', replace: true });
}

/** User area: a signed-in user (else /login keeping `origin`), a non-user → /404. */
export async function guardUserArea({ context, location }: { context: GuardContext; location: GuardLocation }): Promise<void> {
  const kind = await settledSession(context.session);
  if (kind === 'guest') {
    const origin = location.href === '/' ? undefined : location.href;
    throw redirect({ to: '/login', search: origin ? { origin } : {}, replace: true });
  }
  if (kind !== 'user') throw redirect({ to: '/404', replace: true });
}

/** Public reset/verify paths on which stored tokens are cleared (docs/SPEC.md §2). */
export function isResetOrVerifyPath(pathname: string): boolean {
  return /^\/(admin\/)?reset-password\/?$/.test(pathname) || /^\/verify(\/|$)/.test(pathname) || /^\/admin\/setup\/?$/.test(pathname);
}

/**
 * Public area. On reset/verify paths the guard tells the session (PUBLIC_LINK_OPENED): the session machine revokes and
 * clears the tokens itself, and the page is shown signed out (no reload). Otherwise a signed-in visitor goes to their
 * home — also with a `code` in the URL: the session is already signed in, so that code is stale and is never
 * exchanged (browser back, a sign-in finished in another tab).
 */
export async function guardPublicArea({ context, location }: { context: GuardContext; location: GuardLocation }): Promise<void> {
  if (isResetOrVerifyPath(location.pathname)) context.session.send({ type: 'PUBLIC_LINK_OPENED' });
  const kind = await settledSession(context.session);
  if (kind === 'guest') return;
  throw redirect({ to: kind === 'admin' ? '/admin/dashboard' : '/', replace: true });
}
