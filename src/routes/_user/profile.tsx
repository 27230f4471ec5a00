import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { currentUserQueryOptions } from '../../api/account';
import { ProfileScreen } from '../../features/account/profile/profile-screen';

export const Route = createFileRoute('/_user/profile')({
  staticData: { title: msg`Profile` },
  loader: ({ context }) => context.queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => undefined),
  component: UserProfilePage,
});

function UserProfilePage() {
  return <ProfileScreen kind="user" />;
}
