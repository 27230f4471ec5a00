import { Portal } from '@ark-ui/react/portal';
import type { ComponentProps } from 'react';
import { css, cx } from 'styled-system/css';
import * as Dialog from './dialog';

/**
 * A bottom sheet: the kit's Dialog (Ark UI: focus trap, Escape and the backdrop close it, focus goes back to the
 * opener) placed along the bottom edge at full width, for phones. Use inside Dialog.Root with Dialog.Title like a
 * Dialog.Panel.
 */
export function SheetPanel({ children, className, ...props }: ComponentProps<typeof Dialog.Content>) {
  return (
    <Portal>
      <Dialog.Backdrop />
      <Dialog.Positioner className={css({ alignItems: 'flex-end', p: '0' })}>
        <Dialog.Content
          {...props}
          data-sheet=""
          className={cx(
            css({
              maxWidth: 'none',
              borderBottomRadius: '0',
              maxHeight: '85dvh',
              pb: 'calc(token(spacing.6) + env(safe-area-inset-bottom, 0px))',
            }),
            className,
          )}
        >
          {children}
        </Dialog.Content>
      </Dialog.Positioner>
    </Portal>
  );
}
