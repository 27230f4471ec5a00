import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { userQueryOptions } from '../../../features/admin/api/users';
import { UserInformation } from '../../../features/admin/users/user-information';
import { useCurrentAdmin } from '../../../lib/current-admin';

export const Route = createFileRoute('/admin/_shell/user-information/$id')({
  staticData: { title: msg`User information` },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(userQueryOptions(params.id)).catch(() => undefined),
  component: UserInformationPage,
});

function UserInformationPage() {
  const { id } = Route.useParams();
  const admin = useCurrentAdmin();
  return <UserInformation id={id} canEditRoles={admin?.role === 'super_admin'} />;
}
