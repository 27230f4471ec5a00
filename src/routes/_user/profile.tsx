import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { currentUserQueryOptions } from '../../api/account';
import { ProfileScreen } from '../../features/account/profile/profile-screen';

export const Route = createFileRoute('/_user/profile')({
  staticData: { title: msg`Profile` },
  // Not awaited (as the admin dashboard): the layout and its account menu show at once, the screen shows its loading
  // bar until the data comes. Awaited, the page stayed blank while a refresh was in flight (up to the request
  // time-out), with no way to sign out meanwhile.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => undefined);
  },
  component: UserProfilePage,
});

function UserProfilePage() {
  return <ProfileScreen kind="user" />;
}
