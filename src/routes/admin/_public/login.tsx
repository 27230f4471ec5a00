import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { LoginScreen } from '../../../features/account/login/login-screen';
import { loginSearchSchema } from '../../../features/account/login/login-search';

export const Route = createFileRoute('/admin/_public/login')({
  staticData: { title: msg`Admin sign in` },
  validateSearch: loginSearchSchema,
  component: AdminSignInPage,
});

function AdminSignInPage() {
  const search = Route.useSearch();
  return <LoginScreen admin search={search} />;
}
