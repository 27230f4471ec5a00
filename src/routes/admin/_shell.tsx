import { createFileRoute, Outlet } from '@tanstack/react-router';
import { NotFoundPage } from '../../components/errors/not-found-page';
import { AdminShell } from '../../features/admin/shell/admin-shell';

/** Admin area frame. Guard: a later issue requires a signed-in admin (and the role per page). */
export const Route = createFileRoute('/admin/_shell')({
  component: AdminShellLayout,
  notFoundComponent: () => <NotFoundPage landmark={false} />,
});

function AdminShellLayout() {
  return (
    <AdminShell>
      <Outlet />
    </AdminShell>
  );
}
