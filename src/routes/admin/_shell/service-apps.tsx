import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/service-apps')({
  staticData: { title: msg`Service apps` },
  component: ServiceAppsPage,
});

function ServiceAppsPage() {
  return (
    <PageHeading>
      <Trans>Service apps</Trans>
    </PageHeading>
  );
}
