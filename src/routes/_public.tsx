import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../components/layout/site-layout';
import { guardPublicArea } from '../lib/guards';

/**
 * Public area (login, password pages, verify). Signed-in visitors go to their
 * home, except while a sign-in result (`code`) is processed; on reset/verify
 * paths stale tokens are cleared and the page reloads once (src/lib/guards.ts).
 */
export const Route = createFileRoute('/_public')({
  beforeLoad: ({ context, location }) => guardPublicArea({ context, location }),
  component: PublicLayout,
});

function PublicLayout() {
  return (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  );
}
