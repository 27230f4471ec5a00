import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import { XIcon } from '../../../components/ui/icons';
import type { AdminRole } from '../../../lib/current-admin';
import { SidebarBrand, SidebarNav } from './sidebar';

export interface NavDrawerProps {
  role: AdminRole | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The admin navigation on phones (below 768 px): a modal drawer from the start edge (Ark UI Dialog: focus trap,
 * Escape and the backdrop close it, focus returns to the menu button); choosing a page closes it.
 */
export function NavDrawer({ role, open, onOpenChange }: NavDrawerProps) {
  const { t } = useLingui();
  return (
    <ArkDialog.Root open={open} onOpenChange={(details) => onOpenChange(details.open)} lazyMount unmountOnExit>
      <Portal>
        <ArkDialog.Backdrop className={css({ position: 'fixed', inset: '0', bg: 'rgba(15, 23, 42, 0.5)', zIndex: 'overlay' })} />
        <ArkDialog.Positioner className={css({ position: 'fixed', insetY: '0', insetStart: '0', zIndex: 'modal', display: 'flex' })}>
          <ArkDialog.Content
            data-testid="nav-drawer"
            className={css({
              position: 'relative',
              display: 'flex',
              flexDirection: 'column',
              width: '72',
              maxWidth: 'calc(100vw - 3rem)',
              height: '100dvh',
              bg: 'bg.sidebar',
              color: 'fg.sidebar',
              boxShadow: 'lg',
              outline: 'none',
            })}
          >
            <SidebarBrand expanded title={(label) => <ArkDialog.Title className={css({ pe: '8' })}>{label}</ArkDialog.Title>} />
            <SidebarNav role={role} expanded onNavigate={() => onOpenChange(false)} />
            <ArkDialog.CloseTrigger
              aria-label={t`Close navigation`}
              className={css({
                position: 'absolute',
                top: '4',
                insetEnd: '3',
                p: '2',
                borderRadius: 'md',
                cursor: 'pointer',
                color: 'fg.sidebar',
                _hover: { bg: 'bg.sidebarHover', color: 'fg.inverted' },
                _focusVisible: { outline: '2px solid', outlineColor: 'brand.300' },
              })}
            >
              <XIcon width={20} height={20} />
            </ArkDialog.CloseTrigger>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
