import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { FilterIcon } from '../../../components/ui/icons-more';
import { SheetPanel } from '../../../components/ui/sheet';
import { ClearFiltersButton } from '../components/clear-filters-button';

/**
 * The user list's filters on phones (below md): one 'Filters' button, with the number of filters in use, opens them
 * in a bottom sheet (issue 29: at 390 px five selects stood before the first row). Each choice applies at once, as
 * inline; 'Show users' closes the sheet.
 */
export function FiltersSheet({ count, onClear, children }: { count: number; onClear: (() => void) | undefined; children: ReactNode }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={(d) => setOpen(d.open)} lazyMount unmountOnExit>
      <Button variant="outline" size="sm" data-testid="user-filters-button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        <FilterIcon />
        <Trans>Filters</Trans>
        {count > 0 ? (
          <>
            <span
              aria-hidden="true"
              data-testid="user-filters-count"
              className={css({
                minWidth: '5',
                px: '1.5',
                borderRadius: 'full',
                bg: 'accent.default',
                color: 'fg.inverted',
                fontSize: 'xs',
                fontWeight: 'semibold',
                textAlign: 'center',
              })}
            >
              {count}
            </span>
            <span className={css({ srOnly: true })}>
              <Plural value={count} one="(# active)" other="(# active)" />
            </span>
          </>
        ) : null}
      </Button>
      <SheetPanel data-testid="user-filters-sheet">
        <Dialog.Title>{t`Filters`}</Dialog.Title>
        <DialogClose />
        <div
          className={css({
            display: 'flex',
            flexDirection: 'column',
            gap: '3',
          })}
        >
          {children}
        </div>
        <DialogFooter>
          {onClear ? (
            <ClearFiltersButton onClick={onClear} />
          ) : null}
          <Button onClick={() => setOpen(false)}>
            <Trans>Show users</Trans>
          </Button>
        </DialogFooter>
      </SheetPanel>
    </Dialog.Root>
  );
}
