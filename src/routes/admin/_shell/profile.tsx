import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { currentAdminQueryOptions } from '../../../api/account';
import { ProfileScreen } from '../../../features/account/profile/profile-screen';

export const Route = createFileRoute('/admin/_shell/profile')({
  staticData: { title: msg`Profile` },
  loader: ({ context }) => context.queryClient.ensureQueryData(currentAdminQueryOptions()).catch(() => undefined),
  component: AdminProfilePage,
});

function AdminProfilePage() {
  return <ProfileScreen kind="admin" />;
}
