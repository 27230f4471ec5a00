import { msg } from '@lingui/core/macro';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { linkUrlSearch } from '../../../lib/route-searches';
import { PasswordLinkScreen } from '../../../features/account/password/password-link-screen';

/**
 * /verify/verify (invitation), /verify/resetPassword, and the literal
 * /verify/user and /verify/admin links (docs/SPEC.md §2). `?url=` is the full signed API link.
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
  validateSearch: linkUrlSearch,
  staticData: { title: msg`Finish your profile setup` },
  component: VerifyPage,
});

function VerifyPage() {
  const { type } = Route.useParams();
  const { url } = Route.useSearch();
  return <PasswordLinkScreen key={type} flow={type === 'resetPassword' ? 'reset' : 'verify'} admin={type === 'admin'} url={url} />;
}
