import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { rolesQueryOptions } from '../../../features/admin/api/catalog';
import { RolesPage } from '../../../features/admin/catalog/roles-page';

export const Route = createFileRoute('/admin/_shell/roles')({
  staticData: { title: msg`Roles` },
  loader: ({ context }) => context.queryClient.ensureQueryData(rolesQueryOptions()).catch(() => undefined),
  component: RolesPage,
});
