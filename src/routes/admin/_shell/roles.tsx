import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/roles')({
  staticData: { title: msg`Roles` },
  component: RolesPage,
});

function RolesPage() {
  return (
    <PageHeading>
      <Trans>Roles</Trans>
    </PageHeading>
  );
}
