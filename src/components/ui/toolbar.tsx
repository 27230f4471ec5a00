import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/**
 * A row of filters that wraps: each filter starts at its natural width (so "Tous les types d'authentification"
 * is not cut), at least 11rem, and the filters of a row share what is left. A child marked `data-full-row` (a search
 * field) takes a row of its own.
 */
export function Toolbar({ children }: { children: ReactNode }) {
  return (
    <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end', '& > *': { flex: '1 1 max-content', minWidth: 'min(100%, 11rem)', maxWidth: 'full' }, '& > [data-full-row]': { flexBasis: '100%' } })}>
      {children}
    </div>
  );
}
