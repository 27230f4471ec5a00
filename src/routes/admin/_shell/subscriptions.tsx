import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/subscriptions')({
  staticData: { title: msg`Subscriptions` },
  component: SubscriptionsPage,
});

function SubscriptionsPage() {
  return (
    <PageHeading>
      <Trans>Subscriptions</Trans>
    </PageHeading>
  );
}
