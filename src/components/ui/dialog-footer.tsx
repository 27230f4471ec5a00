import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/** The action row at the bottom of a dialog, right-aligned. */
export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap', pt: '2' })}>{children}</div>;
}
