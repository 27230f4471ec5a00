import { Trans } from '@lingui/react/macro';
import { Button } from '../ui/button';
import { StatusPage } from './status-page';

/** Rendered when the app cannot start (e.g. `GET /api/config` failed). */
export function StartupError() {
  return (
    <StatusPage
      heading={<Trans>Application could not start</Trans>}
      actions={
        <Button onClick={() => window.location.reload()}>
          <Trans>Reload</Trans>
        </Button>
      }
    >
      <p>
        <Trans>The server could not be reached. Please try again in a moment.</Trans>
      </p>
    </StatusPage>
  );
}
