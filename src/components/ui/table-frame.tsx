import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { css } from 'styled-system/css';

export interface TableFrameProps {
  label: string;
  children: ReactNode;
  busy?: boolean;
  /**
   * What the hidden header row offers (select all, sort), for the card layout: shown above the cards only there. In
   * the card layout the header row is out of the tab order and of the accessibility tree (the cards carry the
   * column labels), so its controls would otherwise be unreachable.
   */
  cardTools?: ReactNode;
}

/**
 * Frame around a data table. Where the frame is narrower than 40rem (phones, a tablet with the sidebar open) each
 * row becomes a card: the first cell as its heading, every other cell under the label of its column, the row's
 * actions in reach without sideways scrolling. Wider, it is the table, scrolling sideways inside the frame only if it
 * must. The column labels are copied from the header cells onto the body cells (`data-label`), so the screens keep
 * writing plain tables.
 * A last column of row actions (icon buttons, links) sticks to the end edge while the table scrolls.
 */
export function TableFrame({ label, children, busy, cardTools }: TableFrameProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const label = () => {
      const table = frame.querySelector('table');
      if (!table) return;
      const headers = Array.from(table.querySelectorAll('thead th')).map((th) => (th.textContent ?? '').trim());
      const rows = Array.from(table.querySelectorAll('tbody tr'));
      // a last column of icon buttons and links (row actions) stays in view when the table scrolls sideways
      const lastCells = rows.map((row) => row.lastElementChild).filter((cell): cell is Element => cell !== null && ((cell as HTMLTableCellElement).colSpan || 1) === 1);
      const actions = lastCells.length > 0 && lastCells.every((cell) => cell.querySelector('button, a[href]') !== null && (cell.textContent ?? '').trim() === '');
      if (actions) frame.setAttribute('data-actions', '');
      else frame.removeAttribute('data-actions');
      for (const row of rows) {
        let column = 0;
        for (const cell of Array.from(row.children)) {
          const span = (cell as HTMLTableCellElement).colSpan || 1;
          const text = span === 1 && column > 0 ? headers[column] : undefined;
          if (text) {
            if (cell.getAttribute('data-label') !== text) cell.setAttribute('data-label', text);
          } else if (cell.hasAttribute('data-label')) cell.removeAttribute('data-label');
          column += span;
        }
      }
    };
    label();
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(label);
    observer.observe(frame, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={ref}
      role="region"
      aria-label={label}
      aria-busy={busy || undefined}
      tabIndex={0}
      className={css({
        containerType: 'inline-size',
        overflowX: 'auto',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'lg',
        bg: 'bg.surface',
        _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
        opacity: busy ? 0.7 : 1,
        transition: 'opacity token(durations.fast)',
        '& table': { minWidth: '640px' },
        '&[data-actions] tr > :is(th, td):last-child': { position: 'sticky', insetInlineEnd: '0', bg: 'bg.surface', boxShadow: 'inset 1px 0 0 token(colors.border.default)' },
        '&[data-actions] thead tr > th:last-child': { bg: 'bg.subtle' },
        '& > [data-part=card-tools]': { display: 'none', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3', px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border.default', bg: 'bg.subtle' },
        '@container (max-width: 40rem)': {
          '& table': { display: 'block', minWidth: '0' },
          // not visually hidden but gone: its "Select all" and sort buttons took focus while nothing showed them
          '& thead': { display: 'none' },
          '& > [data-part=card-tools]': { display: 'flex' },
          '& tbody': { display: 'block' },
          '& tbody > tr': { display: 'flex', flexDirection: 'column', gap: '1', px: '4', py: '3' },
          '& tbody > tr > td': { display: 'flex', alignItems: 'baseline', flexWrap: 'wrap', columnGap: '3', rowGap: '1', p: '0', minWidth: '0', overflowWrap: 'anywhere' },
          '& tbody > tr > td:first-child': { fontSize: 'md', mb: '1' },
          // the label wraps between words only ("Type d'authentification" over two lines, never "authentificatio-n"), in
          // the body font and at the start whatever the cell's own (a monospace URL or an end-aligned actions cell keeps its label
          // like the others)
          '& tbody > tr > td[data-label]::before': { content: 'attr(data-label)', flex: '0 0 9rem', maxWidth: '45%', color: 'fg.muted', fontFamily: 'body', fontSize: 'xs', fontWeight: 'medium', letterSpacing: 'normal', textTransform: 'none', textAlign: 'start', overflowWrap: 'normal', wordBreak: 'normal' },
          '& tbody > tr > td > *': { minWidth: '0' },
          '&[data-actions] tr > :is(th, td):last-child': { position: 'static', boxShadow: 'none' },
        },
      })}
    >
      {cardTools ? <div data-part="card-tools">{cardTools}</div> : null}
      {children}
    </div>
  );
}
