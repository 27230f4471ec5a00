import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { isChunkLoadError } from '../../lib/preload-error';
import { Button } from '../ui/button';
import { StatusPage } from './status-page';

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } };
  const status = record.status ?? record.statusCode ?? record.response?.status;
  return typeof status === 'number' ? status : undefined;
}

function messageOf(error: unknown): string | undefined {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return undefined;
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

/** docs/SPEC.md §2: an unhandled route error shows 'Unexpected Application Error!' with the status or message. */
export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  if (isChunkLoadError(error)) return <PreloadErrorPage />;
  const status = statusOf(error);
  const message = messageOf(error);
  return (
    <StatusPage
      code={status}
      heading={<Trans>Unexpected Application Error!</Trans>}
      actions={
        <Button variant="outline" onClick={reset}>
          <Trans>Try again</Trans>
        </Button>
      }
    >
      <p role="alert">{status !== undefined ? status : message}</p>
      {status !== undefined && message ? <p>{message}</p> : null}
    </StatusPage>
  );
}
