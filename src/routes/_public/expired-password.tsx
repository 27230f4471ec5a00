import { msg } from '@lingui/core/macro';
import { createFileRoute, useRouterState } from '@tanstack/react-router';
import { adminTypeSearch } from '../../lib/route-searches';
import { LoginFlow } from '../../features/account/login/login-flow';

/**
 * `screen:login.expired-password` / `screen:login.password-changed`: the login machine goes on here after a
 * `password_expired` answer; its `navigate` hands the reset token over in the router's history state (never storage).
 */
export const Route = createFileRoute('/_public/expired-password')({
  staticData: { title: msg`Password expired` },
  validateSearch: adminTypeSearch,
  component: ExpiredPasswordPage,
});

function ExpiredPasswordPage() {
  const { type } = Route.useSearch();
  const resetToken = useRouterState({ select: (state) => state.location.state.resetToken ?? null });
  return <LoginFlow admin={type === 'admin'} interaction={null} resetToken={resetToken} />;
}
