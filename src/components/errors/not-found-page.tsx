import { Trans } from '@lingui/react/macro';
import { Link, useRouterState } from '@tanstack/react-router';
import { button } from 'styled-system/recipes';
import { StatusPage } from './status-page';

function GoHome() {
  return (
    <Link to="/" className={button()}>
      <Trans>Go to Home</Trans>
    </Link>
  );
}

/** docs/SPEC.md §2: title 404, heading 'Page Not Found', a 'Go to Home' button. */
export function NotFoundPage({ landmark }: { landmark?: boolean }) {
  return (
    <StatusPage code={404} heading={<Trans>Page Not Found</Trans>} actions={<GoHome />} landmark={landmark}>
      <p>
        <Trans>The page you're looking for does not seem to exist</Trans>
      </p>
    </StatusPage>
  );
}

/** docs/SPEC.md §2: a path containing 403 shows 'Forbidden Access' with 403. */
export function ForbiddenPage({ landmark }: { landmark?: boolean }) {
  return (
    <StatusPage code={403} heading={<Trans>Forbidden Access</Trans>} actions={<GoHome />} landmark={landmark}>
      <p>
        <Trans>You do not have permission to view this page.</Trans>
      </p>
    </StatusPage>
  );
}

/** Router not-found fallback: 403 for paths containing 403, else 404. */
export function GlobalNotFound() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  return pathname.includes('403') ? <ForbiddenPage /> : <NotFoundPage />;
}
