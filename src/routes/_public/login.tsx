import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthCard, PageHeading } from '../../components/page-heading';

export const Route = createFileRoute('/_public/login')({
  staticData: { title: msg`Sign in` },
  component: SignInPage,
});

function SignInPage() {
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Sign in</Trans>
      </PageHeading>
    </AuthCard>
  );
}
