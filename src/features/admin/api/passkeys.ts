import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/call';
import { route } from '../../../../contract/endpoint';
import type * as passkeyEndpoints from '../../../../contract/passkeys';
import type { SecondFactorPolicy } from '../../../../contract/passkeys';
import { adminKeys } from './keys';

/**
 * The console's passkey endpoints as method and path (typed by the contract's endpoints: a wrong path fails tsc).
 * Not taken from contract/routes.ts's `passkeys` table: that module is in the entry chunk, and using the table from
 * here put all of it there (+0.8 KB raw on every first load, measured); contract/passkeys.ts itself builds its zod
 * schemas on import.
 */
const passkeys = {
  adminListPasskeys: route<typeof passkeyEndpoints.adminListPasskeys>('GET', '/api/admin/users/:id/passkeys'),
  adminDeletePasskey: route<typeof passkeyEndpoints.adminDeletePasskey>('DELETE', '/api/admin/users/:id/passkeys/:passkey'),
  getSecondFactorPolicy: route<typeof passkeyEndpoints.getSecondFactorPolicy>('GET', '/api/admin/settings/second-factor'),
  updateSecondFactorPolicy: route<typeof passkeyEndpoints.updateSecondFactorPolicy>('PUT', '/api/admin/settings/second-factor'),
} as const;

/**
 * A user's passkeys (user information page), under the user's detail key like its sessions: the page's "End
 * sessions" and every change of the user refresh it too. Derived from src/api/query-keys.ts's keys here, not added
 * there: that module is in the entry chunk every page loads.
 */
export const userPasskeysKey = (id: string) => [...adminKeys.user(id), 'passkeys'] as const;

/** The second-factor requirement (super_admin's settings page), under the console's root key. */
export const secondFactorPolicyKey = () => [...adminKeys.all, 'settings', 'second-factor'] as const;

export const userPasskeysQueryOptions = (id: string) =>
  queryOptions({ queryKey: userPasskeysKey(id), queryFn: ({ signal }) => call(passkeys.adminListPasskeys, { params: { id } }, { signal }).then((r) => r.data) });

export const secondFactorPolicyQueryOptions = () =>
  queryOptions({ queryKey: secondFactorPolicyKey(), queryFn: ({ signal }) => call(passkeys.getSecondFactorPolicy, {}, { signal }).then((r) => r.data) });

/** Removes one of a user's passkeys (audited `user.passkey_removed`); the list is fetched again either way. */
export function useRemoveUserPasskey(userId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (passkey: string) => call(passkeys.adminDeletePasskey, { params: { id: userId, passkey } }),
    onSettled: () => qc.invalidateQueries({ queryKey: userPasskeysKey(userId) }),
  });
}

/** Saves the requirement; the answer (one entry per role, none for 'none') becomes the cached policy. */
export function useUpdateSecondFactorPolicy() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (policy: SecondFactorPolicy) => call(passkeys.updateSecondFactorPolicy, { body: policy }).then((r) => r.data),
    onSuccess: (policy) => qc.setQueryData(secondFactorPolicyKey(), policy),
  });
}
