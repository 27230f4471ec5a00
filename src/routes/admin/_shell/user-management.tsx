import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { usersQueryOptions } from '../../../features/admin/api/users';
import { userSearchSchema, toUserFilters, type UserSearch } from '../../../features/admin/users/search';
import { UserManagement } from '../../../features/admin/users/user-management';
import { useCurrentAdmin } from '../../../lib/current-admin';

export const Route = createFileRoute('/admin/_shell/user-management')({
  staticData: { title: msg`User management` },
  validateSearch: userSearchSchema,
  loaderDeps: ({ search }) => toUserFilters(search),
  // Not awaited: the URL (filters) updates at once and the page keeps the previous rows while fetching;
  // errors are shown by the page itself, not by the route error boundary.
  loader: ({ context, deps }) => {
    void context.queryClient.ensureQueryData(usersQueryOptions(deps)).catch(() => undefined);
  },
  component: UserManagementPage,
});

function UserManagementPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const admin = useCurrentAdmin();
  return (
    <UserManagement
      search={search}
      canFilterByRole={admin?.role === 'super_admin'}
      onSearchChange={(next: UserSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
