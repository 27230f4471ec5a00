import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_shell/user-information/$id')({
  staticData: { title: msg`User information` },
  component: UserInformationPage,
});

function UserInformationPage() {
  return (
    <PageHeading>
      <Trans>User information</Trans>
    </PageHeading>
  );
}
