import { createFileRoute, Outlet } from '@tanstack/react-router';
import { NotFoundPage } from '../../components/errors/not-found-page';
import { AdminShell } from '../../features/admin/shell/admin-shell';
import { guardAdminArea } from '../../lib/guards';
import { SessionScreenRoot } from '../../lib/session-context';

/**
 * Admin area frame. Guard: a signed-in admin (else /admin/login), a non-admin
 * → /404, super_admin-only pages → /404 for managers (src/lib/guards.ts).
 */
export const Route = createFileRoute('/admin/_shell')({
  beforeLoad: async ({ context, location }) => {
    await guardAdminArea({ context, location });
  },
  component: AdminShellLayout,
  notFoundComponent: () => <NotFoundPage landmark={false} />,
});

function AdminShellLayout() {
  return (
    <SessionScreenRoot>
      <AdminShell>
        <Outlet />
      </AdminShell>
    </SessionScreenRoot>
  );
}
