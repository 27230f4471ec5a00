import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/call';
import type { SecondFactorPolicy } from '../../../../contract/passkeys';
// method and path only: contract/passkeys.ts builds its zod schemas on import. The table is in the entry chunk already
// (the sign-in and the profile call through it), admin entries included: using it here adds nothing to a first load.
import { passkeys } from '../../../../contract/routes';
import { adminKeys } from './keys';

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
