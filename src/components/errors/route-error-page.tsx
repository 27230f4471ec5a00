import { Trans } from '@lingui/react/macro';
import { Link, useRouter, useRouterState, type ErrorComponentProps } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { button } from 'styled-system/recipes';
import { isChunkLoadError } from '../../lib/preload-error';
import { Button } from '../ui/button';
import { StatusPage } from './status-page';

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } };
  const status = record.status ?? record.statusCode ?? record.response?.status;
  return typeof status === 'number' ? status : undefined;
}

function reload() {
  window.location.reload();
}

/** The app failed to load one of its parts (docs/SPEC.md §8 preload error). */
export function PreloadErrorPage() {
  return (
    <StatusPage
      heading={<Trans>This page could not be loaded</Trans>}
      actions={
        <Button onClick={reload}>
          <Trans>Reload</Trans>
        </Button>
      }
    >
      <p>
        <Trans>A part of the application failed to load, possibly because a new version was released. Please reload the page.</Trans>
      </p>
    </StatusPage>
  );
}

/**
 * docs/SPEC.md §2: a route error nobody handled. A product page in the person's language with a way back ("Try again",
 * and home), focus on its heading; never the error's message or stack (issue 29): those go to the console only
 * (React logs them). A 4xx/5xx status is shown as a number.
 */
export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  if (isChunkLoadError(error)) return <PreloadErrorPage />;
  const status = statusOf(error);
  const home = pathname.startsWith('/admin') ? '/admin/dashboard' : '/';
  const tryAgain = () => {
    reset();
    void router.invalidate();
  };
  return (
    <div data-error-boundary="" className={css({ display: 'contents' })}>
      <StatusPage
        code={status}
        focusHeading
        heading={<Trans>Something went wrong</Trans>}
        actions={
          <>
            <Button variant="outline" onClick={tryAgain}>
              <Trans>Try again</Trans>
            </Button>
            <Link to={home} className={button()}>
              <Trans>Go to Home</Trans>
            </Link>
          </>
        }
      >
        <p>
          <Trans>This page ran into a problem and could not be shown. Try again, or go back to the home page.</Trans>
        </p>
      </StatusPage>
    </div>
  );
}
