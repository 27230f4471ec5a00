import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/dashboard')({
  staticData: { title: msg`Dashboard` },
  component: DashboardPage,
});

function DashboardPage() {
  return (
    <PageHeading>
      <Trans>Dashboard</Trans>
    </PageHeading>
  );
}
