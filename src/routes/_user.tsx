import { createFileRoute } from '@tanstack/react-router';
import { SiteAreaLayout } from '../components/layout/site-layout';
import { AccountMenu } from '../features/account/account-menu';
import { guardUserArea } from '../lib/guards';

/** User area (home, profile): a signed-in user; guests go to /login?origin=…, others to /404. */
export const Route = createFileRoute('/_user')({
  beforeLoad: ({ context, location }) => guardUserArea({ context, location }),
  component: UserLayout,
});

function UserLayout() {
  return <SiteAreaLayout headerActions={<AccountMenu />} />;
}
