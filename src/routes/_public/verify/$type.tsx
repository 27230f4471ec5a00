import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { AuthCard, PageHeading } from '../../../components/page-heading';

/**
 * /verify/verify (invitation), /verify/resetPassword, and the literal
 * /verify/user and /verify/admin links (SPEC §2).
 */
export const VERIFY_TYPES = ['verify', 'resetPassword', 'user', 'admin'] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

function isVerifyType(value: string): value is VerifyType {
  return (VERIFY_TYPES as readonly string[]).includes(value);
}

export const Route = createFileRoute('/_public/verify/$type')({
  params: {
    parse: ({ type }) => {
      if (!isVerifyType(type)) throw notFound();
      return { type };
    },
    stringify: ({ type }) => ({ type }),
  },
  staticData: { title: msg`Finish your profile setup` },
  component: VerifyPage,
});

function VerifyPage() {
  const { type } = Route.useParams();
  return (
    <AuthCard>
      <PageHeading>{type === 'resetPassword' ? <Trans>Reset password</Trans> : <Trans>Finish your profile setup</Trans>}</PageHeading>
    </AuthCard>
  );
}
