import { queryOptions, useQuery } from '@tanstack/react-query';
import type * as systemContract from '../../../../contract/system';
import { configQueryOptions } from '../../../api/account';

export type SsoProvider = systemContract.ClientConfig['sso_providers'][number];

/**
 * SSO identity providers from the public client configuration (contract/system.ts clientConfig), for "add user by
 * SSO": the ['config'] query itself (the whole configuration in the cache, shared with the sign-in screens), narrowed
 * with `select`. A query of its own under the same key once cached the providers array where the sign-in screens
 * expect the object, and "Add user" crashed after a sign-in (issue 29).
 */
export function ssoProvidersQueryOptions() {
  return queryOptions({
    ...configQueryOptions(),
    select: (config): SsoProvider[] => config.sso_providers,
  });
}

/** A provider id's display name (its configured `name`; the id while loading or when no longer configured). */
export function useSsoProviderName(): (id: string) => string {
  const providers = useQuery(ssoProvidersQueryOptions());
  return (id) => providers.data?.find((p) => p.id === id)?.name ?? id;
}
