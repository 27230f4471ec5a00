/**
 * Route guards of docs/SPEC.md §2 "Access areas", called from the pathless layouts'
 * `beforeLoad` (`_public`, `_user`, `admin/_public`, `admin/_shell`).
 * They wait until the session actor leaves its 'loading' tag (restore,
 * refresh, sign-in in progress) and then decide from its snapshot.
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { currentAdminQueryOptions, type AdminRole } from '../api/account';
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

export type SessionKind = 'guest' | 'user' | 'admin';

/** Resolves once the session is settled; 'guest' | 'user' | 'admin'. */
export async function settledSession(session: SessionHandle): Promise<SessionKind> {
  const snapshot = await waitFor(session, (s) => !s.hasTag('loading'), { timeout: 30_000 }).catch(() => session.getSnapshot());
  if (!snapshot.hasTag('session:signed-in') || !snapshot.context.tokens) return 'guest';
  return snapshot.context.admin ? 'admin' : 'user';
}

/** Admin pages only super_admin may open (docs/SPEC.md §2 sidebar, §6). */
export const SUPER_ADMIN_PATHS: readonly string[] = ['/admin/admin-management', '/admin/roles', '/admin/service-apps', '/admin/subscriptions'];

export function requiredAdminRoles(pathname: string): readonly AdminRole[] {
  const path = pathname.replace(/\/+$/, '');
  return SUPER_ADMIN_PATHS.some((p) => path === p || path.startsWith(`${p}/`)) ? ['super_admin'] : ['super_admin', 'manager'];
}

/** A same-origin relative path, safe to navigate to after login (no open redirect). */
export function safeOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  return value;
}

/** Where a fresh sign-in lands: admins (or any /admin path) → admin home; others → origin or /. */
export function afterLoginTarget(kind: 'user' | 'admin', origin?: string): string {
  const safe = safeOrigin(origin);
  if (kind === 'admin' || safe?.startsWith('/admin')) return '/admin/dashboard';
  if (safe && !safe.startsWith('/login')) return safe;
  return '/';
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

const RESET_RELOAD_FLAG = 'iam:public-reset-reloaded';

/** Public reset/verify paths on which stale tokens are cleared (docs/SPEC.md §2). */
export function isResetOrVerifyPath(pathname: string): boolean {
  return /^\/(admin\/)?reset-password\/?$/.test(pathname) || /^\/verify(\/|$)/.test(pathname) || /^\/admin\/setup\/?$/.test(pathname);
}

export interface PublicGuardEffects {
  hasStoredTokens: () => boolean;
  clearStoredTokens: () => void;
  reload: () => void;
  /** sessionStorage-like flag store (reload once). */
  flags: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

function browserEffects(): PublicGuardEffects {
  return {
    hasStoredTokens: () => {
      try {
        return window.localStorage.getItem('token') !== null;
      } catch {
        return false;
      }
    },
    clearStoredTokens: () => {
      try {
        window.localStorage.removeItem('token');
        window.localStorage.removeItem('admin_session');
      } catch {
        // storage unavailable: nothing stored either
      }
    },
    reload: () => window.location.reload(),
    flags: window.sessionStorage,
  };
}

/** True while the sign-in result is still arriving: keep the visitor on the page with a loading bar. */
export function isSignInPending(search: Record<string, unknown>, hasToken: boolean): boolean {
  if (search.code !== undefined && search.code !== null && search.code !== '') return true;
  if (!hasToken && search.type === 'sso') return true;
  if (!hasToken && (search.token_reset === true || search.token_reset === 'true')) return true;
  return false;
}

/**
 * Public area: on reset/verify paths stored tokens are cleared and the page
 * reloads once; otherwise signed-in visitors go to their home, unless a
 * sign-in result (`code`) is being processed on this page.
 */
export async function guardPublicArea(
  { context, location }: { context: GuardContext; location: GuardLocation },
  effects: PublicGuardEffects = browserEffects(),
): Promise<void> {
  if (isResetOrVerifyPath(location.pathname)) {
    if (effects.hasStoredTokens() && effects.flags.getItem(RESET_RELOAD_FLAG) === null) {
      effects.flags.setItem(RESET_RELOAD_FLAG, '1');
      effects.clearStoredTokens();
      effects.reload();
      return;
    }
    effects.flags.removeItem(RESET_RELOAD_FLAG);
  }
  const kind = await settledSession(context.session);
  if (kind === 'guest') return;
  if (isSignInPending(location.search, true)) return;
  if (isResetOrVerifyPath(location.pathname)) return;
  throw redirect({ to: kind === 'admin' ? '/admin/dashboard' : '/', replace: true });
}
