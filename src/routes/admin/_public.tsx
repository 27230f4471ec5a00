import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../../components/layout/site-layout';

/** Admin login and admin reset password use the public layout. */
export const Route = createFileRoute('/admin/_public')({
  component: AdminPublicLayout,
});

function AdminPublicLayout() {
  return (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  );
}
