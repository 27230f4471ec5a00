import { queryOptions, useQuery } from '@tanstack/react-query';
import type * as systemContract from '../../../../contract/system';
// method and path only: contract/system.ts builds its zod schemas on import (contract/routes.ts)
import { system } from '../../../../contract/routes';
import { call } from '../../../api/call';
import { adminKeys } from './keys';

export type SsoProvider = systemContract.ClientConfig['sso_providers'][number];

/** SSO identity providers from the public client configuration (contract/system.ts clientConfig), for "add user by SSO". */
export function ssoProvidersQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.config(),
    queryFn: ({ signal }) => call(system.clientConfig, {}, { signal }).then((r) => r.data.sso_providers),
    staleTime: 5 * 60_000,
  });
}

/** A provider id's display name (its configured `name`; the id while loading or when no longer configured). */
export function useSsoProviderName(): (id: string) => string {
  const providers = useQuery(ssoProvidersQueryOptions());
  return (id) => providers.data?.find((p) => p.id === id)?.name ?? id;
}
