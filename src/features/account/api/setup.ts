import { queryOptions } from '@tanstack/react-query';
import { checkSetupLink } from '../../../../contract/system';
import { call } from '../../../api/call';
import { queryKeys } from '../../../api/query-keys';

/** Whether the one-time set-up link (`/admin/setup?token=`) is still valid (contract/system.ts checkSetupLink). */
export function setupLinkQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.setupLink(token),
    enabled: Boolean(token),
    queryFn: ({ signal }) => call(checkSetupLink, { params: { token: token ?? '' } }, { signal }),
  });
}
