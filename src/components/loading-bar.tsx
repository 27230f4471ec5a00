import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';

/** Indeterminate top progress bar with a polite status for screen readers. */
export function LoadingBar({ label }: { label?: string }) {
  const { t } = useLingui();
  return (
    <div role="status" aria-live="polite" className={css({ position: 'fixed', top: '0', insetInline: '0', height: '3px', overflow: 'hidden', zIndex: 'toast', bg: 'accent.subtle' })}>
      <span className={css({ srOnly: true })}>{label ?? t`Loading…`}</span>
      <div
        data-testid="loading-bar"
        className={css({
          position: 'absolute',
          top: '0',
          bottom: '0',
          width: '40%',
          bg: 'accent.default',
          animation: 'loadingBar 1.2s ease-in-out infinite',
        })}
      />
    </div>
  );
}
