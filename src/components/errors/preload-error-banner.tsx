import { Trans } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import { usePreloadError } from '../../lib/preload-error';
import { Button } from '../ui/button';

/** Shown when Vite reports a failed chunk preload (`vite:preloadError`). */
export function PreloadErrorBanner() {
  const failed = usePreloadError();
  if (!failed) return null;
  return (
    <div
      role="alert"
      className={css({
        position: 'fixed',
        insetX: '0',
        top: '0',
        zIndex: 'toast',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: '4',
        px: '4',
        py: '2',
        bg: 'warning.50',
        color: 'warning.700',
        borderBottomWidth: '1px',
        borderColor: 'warning.600',
        fontSize: 'sm',
      })}
    >
      <span>
        <Trans>A part of the application failed to load, possibly because a new version was released. Please reload the page.</Trans>
      </span>
      <Button size="sm" variant="outline" onClick={() => window.location.reload()}>
        <Trans>Reload</Trans>
      </Button>
    </div>
  );
}
