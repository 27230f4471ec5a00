import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { LoginScreen } from '../../features/account/login/login-screen';
import { loginSearchSchema } from '../../features/account/login/login-search';

export const Route = createFileRoute('/_public/login')({
  staticData: { title: msg`Sign in` },
  validateSearch: loginSearchSchema,
  component: SignInPage,
});

function SignInPage() {
  const search = Route.useSearch();
  return <LoginScreen admin={false} search={search} />;
}
