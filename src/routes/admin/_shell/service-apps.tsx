import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { serviceAppsQueryOptions } from '../../../features/admin/api/catalog';
import { ServiceAppsPage } from '../../../features/admin/catalog/service-apps-page';

export const Route = createFileRoute('/admin/_shell/service-apps')({
  staticData: { title: msg`Service apps` },
  loader: ({ context }) => context.queryClient.ensureQueryData(serviceAppsQueryOptions()).catch(() => undefined),
  component: ServiceAppsPage,
});
