import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../components/page-heading';

export const Route = createFileRoute('/_user/profile')({
  staticData: { title: msg`Profile` },
  component: ProfilePage,
});

function ProfilePage() {
  return (
    <PageHeading>
      <Trans>Profile</Trans>
    </PageHeading>
  );
}
