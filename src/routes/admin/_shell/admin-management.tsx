import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AdminManagement } from '../../../features/admin/admins/admin-management';
import { adminSearchSchema, type AdminSearch } from '../../../features/admin/admins/search';
import { adminsQueryOptions } from '../../../features/admin/api/admins';
import { useCurrentAdmin } from '../../../lib/current-admin';

export const Route = createFileRoute('/admin/_shell/admin-management')({
  staticData: { title: msg`Admin management` },
  validateSearch: adminSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1, size: search.size ?? 10, search: search.search?.trim() || undefined }),
  // Not awaited: the URL (filters) updates at once and the page keeps the previous rows while fetching;
  // errors are shown by the page itself, not by the route error boundary.
  loader: ({ context, deps }) => {
    void context.queryClient.ensureQueryData(adminsQueryOptions(deps)).catch(() => undefined);
  },
  component: AdminManagementPage,
});

function AdminManagementPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const admin = useCurrentAdmin();
  return <AdminManagement search={search} currentAdminId={admin?.id ?? null} onSearchChange={(next: AdminSearch) => void navigate({ search: next, replace: true })} />;
}
