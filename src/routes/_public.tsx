import { createFileRoute } from '@tanstack/react-router';
import { SiteAreaLayout } from '../components/layout/site-layout';
import { guardPublicArea } from '../lib/guards';

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
  return <SiteAreaLayout />;
}
