import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../api';
import { adminKeys } from './keys';

export interface SsoProvider {
  id: string;
  name: string;
}

/** SSO identity providers from `GET /api/config` (for "add user by SSO"). */
export function ssoProvidersQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.config(),
    queryFn: ({ signal }) => apiGet<{ data: { sso_providers?: SsoProvider[] } }>('/api/config', { signal }).then((r) => r.data.sso_providers ?? []),
    staleTime: 5 * 60_000,
  });
}
