import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../../components/layout/site-layout';
import { guardPublicArea } from '../../lib/guards';
import { SessionScreenRoot } from '../../lib/session-context';

/** Admin login, admin reset password and first-start setup use the public layout and its guard. */
export const Route = createFileRoute('/admin/_public')({
  beforeLoad: async ({ context, location }) => {
    await guardPublicArea({ context, location });
  },
  component: AdminPublicLayout,
});

function AdminPublicLayout() {
  return (
    <SessionScreenRoot>
      <SiteLayout>
        <Outlet />
      </SiteLayout>
    </SessionScreenRoot>
  );
}
