import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { linkUrlSearch } from '../../../lib/route-searches';
import { PasswordLinkScreen } from '../../../features/account/password/password-link-screen';

export const Route = createFileRoute('/admin/_public/reset-password')({
  staticData: { title: msg`Reset password` },
  validateSearch: linkUrlSearch,
  component: AdminResetPasswordPage,
});

function AdminResetPasswordPage() {
  const { url } = Route.useSearch();
  return <PasswordLinkScreen flow="reset" admin url={url} />;
}
