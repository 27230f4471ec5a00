import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthCard, PageHeading } from '../../components/page-heading';

export const Route = createFileRoute('/_public/expired-password')({
  staticData: { title: msg`Password expired` },
  component: PasswordExpiredPage,
});

function PasswordExpiredPage() {
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Password expired</Trans>
      </PageHeading>
    </AuthCard>
  );
}
