/**
 * Query options for the signed-in account and app-wide data (docs/DESIGN.md §7).
 * Loaders use them with `queryClient.ensureQueryData(...)`, components with
 * `useQuery` / `useSuspenseQuery`. Keys live under ['account', …] so a
 * language change or logout resets them together.
 */
import { queryOptions } from '@tanstack/react-query';
import { auth, profile, system } from '../../contract/routes';
import type { CurrentAdmin } from '../../contract/auth';
import type { Locale } from '../../contract/locales';
import type { OidcClientConfig } from '../../machines/shared';
import { FALLBACK_LANGUAGES } from '../lib/i18n';
import { call, sessionCall } from './call';
import { queryKeys } from './query-keys';

export type AdminRole = NonNullable<CurrentAdmin['auth_user']['role']>;
export type {
  AuthUser,
  ServiceAppLink,
  UserSubscription as Subscription,
  TwoFactorMethod,
  TwoFactorStatus,
  CurrentUser,
  CurrentAdmin as CurrentAdminResponse,
} from '../../contract/auth';

/** A profile owner, user or admin: what the shared profile screens need. */
export type AccountKind = 'user' | 'admin';

/** The account's keys (defined in src/api/query-keys.ts). */
export const accountKeys = queryKeys.account;

// One fetch per key (tests/spa/query-keys.test.ts): every query of a key shares its queryFn.
const fetchCurrentUser = ({ signal }: { signal: AbortSignal }) => call(auth.currentUser, { query: { with: 'subscriptions' } }, { signal }).then((r) => r.data);
const fetchCurrentAdmin = ({ signal }: { signal: AbortSignal }) => call(auth.currentAdmin, {}, { signal }).then((r) => r.data);

/** The signed-in user with subscriptions (contract/auth.ts currentUser). */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.user,
    queryFn: fetchCurrentUser,
    staleTime: 30_000,
  });
}

/** The signed-in admin (contract/auth.ts currentAdmin). */
export function currentAdminQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.admin,
    queryFn: fetchCurrentAdmin,
    staleTime: 30_000,
  });
}

/** The profile query of either account kind. */
export function currentAccountQueryOptions(kind: AccountKind) {
  return kind === 'admin' ? currentAdminQueryOptions() : currentUserQueryOptions();
}

/** The languages the server offers (contract/system.ts languages); en/de/fr/it when the call fails. */
export function languagesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.languages(),
    queryFn: async ({ signal }) => {
      try {
        const body = await call(system.languages, {}, { signal });
        // the answer is not validated on the client: keep only non-empty strings
        const languages: unknown = body.data.languages;
        const list = Array.isArray(languages) ? languages.filter((c): c is string => typeof c === 'string' && c.length > 0) : [];
        return list.length > 0 ? list : [...FALLBACK_LANGUAGES];
      } catch {
        return [...FALLBACK_LANGUAGES];
      }
    },
    staleTime: Infinity,
  });
}

/** The public client configuration: OIDC endpoints, client ids, SSO providers (contract/system.ts clientConfig). */
export function configQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.config(),
    queryFn: fetchConfig,
    staleTime: Infinity,
  });
}

/** The one fetch behind the ['config'] key: every query of that key caches the whole configuration. */
function fetchConfig({ signal }: { signal: AbortSignal }): Promise<OidcClientConfig> {
  return call(system.clientConfig, {}, { signal }).then((r): OidcClientConfig => r.data);
}

/**
 * Saves the signed-in account's language (its profile: contract/profile.ts) for the session machine: 401s are not
 * fed back into the session (no refresh loop).
 */
export async function saveLocale(input: { admin: boolean; locale: string }): Promise<{ locale: string }> {
  // the picker offers the server's languages; the server refuses anything else (422)
  const body = { locale: input.locale as Locale };
  const response = await (input.admin ? sessionCall(profile.updateAdminProfile, { body }) : sessionCall(profile.updateUserProfile, { body }));
  return { locale: response.data.locale };
}
