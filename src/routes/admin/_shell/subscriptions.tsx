import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { subscriptionsQueryOptions } from '../../../features/admin/api/catalog';
import { SubscriptionsPage } from '../../../features/admin/catalog/subscriptions-page';

export const Route = createFileRoute('/admin/_shell/subscriptions')({
  staticData: { title: msg`Subscriptions` },
  loader: ({ context }) => context.queryClient.ensureQueryData(subscriptionsQueryOptions()).catch(() => undefined),
  component: SubscriptionsPage,
});
