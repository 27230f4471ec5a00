import { createFileRoute } from '@tanstack/react-router';
import { adminSetupSearch } from '../../../lib/route-searches';
import { AdminSetupScreen } from '../../../features/account/password/admin-setup-screen';
import { pageTitles } from '../../../features/account/password/page-titles';

/** `/admin/setup?token=` — first-start link printed by the server. */
export const Route = createFileRoute('/admin/_public/setup')({
  staticData: { title: pageTitles.setup },
  validateSearch: adminSetupSearch,
  component: AdminSetupPage,
});

function AdminSetupPage() {
  const { token } = Route.useSearch();
  return <AdminSetupScreen token={token} />;
}
