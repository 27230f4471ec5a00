import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../components/layout/site-layout';

/** User area (home, profile). Guard: a later issue requires a signed-in user. */
export const Route = createFileRoute('/_user')({
  component: UserLayout,
});

function UserLayout() {
  return (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  );
}
