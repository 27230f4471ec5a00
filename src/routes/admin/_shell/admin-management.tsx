import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/admin-management')({
  staticData: { title: msg`Admin management` },
  component: AdminManagementPage,
});

function AdminManagementPage() {
  return (
    <PageHeading>
      <Trans>Admin management</Trans>
    </PageHeading>
  );
}
