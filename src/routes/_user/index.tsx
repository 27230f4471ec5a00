import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { currentUserQueryOptions } from '../../api/account';
import { HomeScreen } from '../../features/account/home/home-screen';

export const Route = createFileRoute('/_user/')({
  staticData: { title: msg`Home` },
  loader: ({ context }) => context.queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => undefined),
  component: HomeScreen,
});
