import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthCard, PageHeading } from '../../components/page-heading';

export const Route = createFileRoute('/_public/forgot-password')({
  staticData: { title: msg`Forgot password` },
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Forgot password</Trans>
      </PageHeading>
    </AuthCard>
  );
}
