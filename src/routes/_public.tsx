import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../components/layout/site-layout';
import { guardPublicArea } from '../lib/guards';
import { SessionScreenRoot } from '../lib/session-context';

/**
 * Public area (login, password pages, verify). Signed-in visitors go to their
 * home, except while a sign-in result (`code`) is processed; on reset/verify
 * paths the session machine revokes and clears stored tokens (src/lib/guards.ts sends PUBLIC_LINK_OPENED).
 */
export const Route = createFileRoute('/_public')({
  beforeLoad: ({ context, location }) => guardPublicArea({ context, location }),
  component: PublicLayout,
});

function PublicLayout() {
  return (
    <SessionScreenRoot>
      <SiteLayout>
        <Outlet />
      </SiteLayout>
    </SessionScreenRoot>
  );
}
