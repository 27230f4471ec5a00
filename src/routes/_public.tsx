import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../components/layout/site-layout';

/** Public area (login, password pages, verify). Guard: a later issue redirects signed-in visitors. */
export const Route = createFileRoute('/_public')({
  component: PublicLayout,
});

function PublicLayout() {
  return (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  );
}
