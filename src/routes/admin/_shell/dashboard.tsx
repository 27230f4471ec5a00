import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { activitiesQueryOptions, dailySignInsQueryOptions, errorLogsQueryOptions } from '../../../features/admin/api/logs';
import { Dashboard } from '../../../features/admin/dashboard/dashboard';
import { useCurrentAdmin } from '../../../lib/current-admin';
import { activityFilters, dashboardSearchSchema, errorFilters, type DashboardSearch } from '../../../features/admin/dashboard/search';

export const Route = createFileRoute('/admin/_shell/dashboard')({
  staticData: { title: msg`Dashboard` },
  validateSearch: dashboardSearchSchema,
  loaderDeps: ({ search }) => ({ activities: activityFilters(search), errors: errorFilters(search) }),
  // Not awaited: the URL (filters) updates at once; errors are shown by the cards.
  loader: ({ context, deps }) => {
    void Promise.all([
      context.queryClient.ensureQueryData(dailySignInsQueryOptions(30)),
      context.queryClient.ensureQueryData(activitiesQueryOptions(deps.activities)),
      context.queryClient.ensureQueryData(errorLogsQueryOptions(deps.errors)),
    ]).catch(() => undefined);
  },
  component: DashboardPage,
});

function DashboardPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const admin = useCurrentAdmin();
  return <Dashboard search={search} showAudit={admin?.role === 'super_admin'} onSearchChange={(next: DashboardSearch) => void navigate({ search: next, replace: true })} />;
}
