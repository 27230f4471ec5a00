/**
 * Query options for the signed-in account and app-wide data (docs/DESIGN.md §7).
 * Loaders use them with `queryClient.ensureQueryData(...)`, components with
 * `useQuery` / `useSuspenseQuery`. Keys live under ['account', …] so a
 * language change or logout resets them together.
 */
import { queryOptions } from '@tanstack/react-query';
import type { OidcClientConfig } from '../../machines/shared';
import { FALLBACK_LANGUAGES } from '../lib/i18n';
import { apiGet } from './index';

export type AdminRole = 'super_admin' | 'manager';
export type TwoFactorMethod = 'GOOGLE' | 'SMS';

export interface AuthUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  locale: string;
  type: 'user' | 'admin';
  status: 'ACTIVE' | 'INACTIVE';
  auth_type: 'CREDENTIALS' | 'SSO';
  provider: string | null;
  technical: boolean;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface ServiceAppLink {
  id: string;
  name: string;
  display_name: string;
  url: string;
  path: string;
}

export interface Subscription {
  id: string;
  name: string;
  description: string;
  roles: Array<{ id: string; name: string }>;
  service_apps: ServiceAppLink[];
}

export interface TwoFactorStatus {
  enabled: boolean;
  method: TwoFactorMethod | null;
}

export interface CurrentUser {
  auth_user: AuthUser & { subscriptions?: Subscription[] };
  '2fa': TwoFactorStatus;
  sso_login: boolean;
}

export interface CurrentAdminResponse {
  auth_user: AuthUser & { role: AdminRole | null };
  '2fa': TwoFactorStatus;
}

/** A profile owner, user or admin: what the shared profile screens need. */
export type AccountKind = 'user' | 'admin';

export const accountKeys = {
  all: ['account'] as const,
  user: ['account', 'user'] as const,
  admin: ['account', 'admin'] as const,
};

/** `GET /api/user?with=subscriptions` */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.user,
    queryFn: ({ signal }) => apiGet<{ data: CurrentUser }>('/api/user', { query: { with: 'subscriptions' }, signal }).then((r) => r.data),
    staleTime: 30_000,
  });
}

/** `GET /api/admin` */
export function currentAdminQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.admin,
    queryFn: ({ signal }) => apiGet<{ data: CurrentAdminResponse }>('/api/admin', { signal }).then((r) => r.data),
    staleTime: 30_000,
  });
}

/** The profile query of either account kind. */
export function currentAccountQueryOptions(kind: AccountKind) {
  return kind === 'admin' ? currentAdminQueryOptions() : currentUserQueryOptions();
}

/** `GET /api/languages` → codes; en/de/fr/it when the call fails. */
export function languagesQueryOptions() {
  return queryOptions({
    queryKey: ['languages'] as const,
    queryFn: async ({ signal }) => {
      try {
        const body = await apiGet<{ data: { languages: unknown } }>('/api/languages', { signal });
        const list = Array.isArray(body.data.languages) ? body.data.languages.filter((c): c is string => typeof c === 'string' && c.length > 0) : [];
        return list.length > 0 ? list : [...FALLBACK_LANGUAGES];
      } catch {
        return [...FALLBACK_LANGUAGES];
      }
    },
    staleTime: Infinity,
  });
}

/** `GET /api/config` (OIDC endpoints, client ids, SSO providers). */
export function configQueryOptions() {
  return queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) => apiGet<{ data: OidcClientConfig }>('/api/config', { signal }).then((r) => r.data),
    staleTime: Infinity,
  });
}
