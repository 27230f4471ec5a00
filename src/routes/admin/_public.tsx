import { createFileRoute } from '@tanstack/react-router';
import { SiteAreaLayout } from '../../components/layout/site-layout';
import { guardPublicArea } from '../../lib/guards';

/** Admin login, admin reset password and first-start setup use the public layout and its guard. */
export const Route = createFileRoute('/admin/_public')({
  beforeLoad: async ({ context, location }) => {
    await guardPublicArea({ context, location });
  },
  component: AdminPublicLayout,
});

function AdminPublicLayout() {
  return <SiteAreaLayout />;
}
