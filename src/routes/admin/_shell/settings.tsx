import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { rolesQueryOptions } from '../../../features/admin/api/catalog';
import { secondFactorPolicyQueryOptions } from '../../../features/admin/api/passkeys';
import { SecondFactorSettings } from '../../../features/admin/catalog/second-factor-settings';

/** super_admin only: the shell's guard (src/lib/guards.ts SUPER_ADMIN_PATHS) sends a manager to /404. */
export const Route = createFileRoute('/admin/_shell/settings')({
  staticData: { title: msg`Settings` },
  loader: ({ context }) =>
    Promise.all([context.queryClient.ensureQueryData(secondFactorPolicyQueryOptions()), context.queryClient.ensureQueryData(rolesQueryOptions())]).catch(() => undefined),
  component: SecondFactorSettings,
});
