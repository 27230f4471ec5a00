import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/user-management')({
  staticData: { title: msg`User management` },
  component: UserManagementPage,
});

function UserManagementPage() {
  return (
    <PageHeading>
      <Trans>User management</Trans>
    </PageHeading>
  );
}
