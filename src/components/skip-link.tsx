import { Trans } from '@lingui/react/macro';
import { css } from 'styled-system/css';

export const MAIN_CONTENT_ID = 'main-content';

/** First focusable element: jumps over the navigation to the main landmark. */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className={css({
        position: 'absolute',
        insetStart: '2',
        top: '-16',
        zIndex: 'toast',
        bg: 'accent.default',
        color: 'accent.fg',
        px: '4',
        py: '2',
        borderRadius: 'md',
        fontWeight: 'medium',
        _focusVisible: { top: '2' },
        _focus: { top: '2' },
      })}
    >
      <Trans>Skip to main content</Trans>
    </a>
  );
}
