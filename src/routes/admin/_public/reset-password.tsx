import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthCard, PageHeading } from '../../../components/page-heading';

export const Route = createFileRoute('/admin/_public/reset-password')({
  staticData: { title: msg`Reset password` },
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Reset password</Trans>
      </PageHeading>
    </AuthCard>
  );
}
