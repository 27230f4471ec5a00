import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/** A row of filters that wraps on small screens. */
export function Toolbar({ children }: { children: ReactNode }) {
  return <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(auto-fit, minmax(160px, 1fr))' }, gap: '3', alignItems: 'end' })}>{children}</div>;
}
