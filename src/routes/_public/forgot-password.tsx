import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { adminTypeSearch } from '../../lib/route-searches';
import { ForgotPasswordScreen } from '../../features/account/password/forgot-password-screen';

/** `/forgot-password`, and `?type=admin` for administrators (linked from /admin/login). */
export const Route = createFileRoute('/_public/forgot-password')({
  staticData: { title: msg`Forgot password` },
  validateSearch: adminTypeSearch,
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  const { type } = Route.useSearch();
  return <ForgotPasswordScreen admin={type === 'admin'} />;
}
