import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthCard, PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_public/login')({
  staticData: { title: msg`Admin sign in` },
  component: AdminSignInPage,
});

function AdminSignInPage() {
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Admin sign in</Trans>
      </PageHeading>
    </AuthCard>
  );
}
