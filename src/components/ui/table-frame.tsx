import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

export interface TableFrameProps {
  label: string;
  children: ReactNode;
  busy?: boolean;
}

/** Horizontally scrollable, keyboard-focusable frame around a data table (360 px screens). */
export function TableFrame({ label, children, busy }: TableFrameProps) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-busy={busy || undefined}
      tabIndex={0}
      className={css({
        overflowX: 'auto',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'lg',
        bg: 'bg.surface',
        _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
        '& table': { minWidth: '640px' },
        opacity: busy ? 0.7 : 1,
        transition: 'opacity token(durations.fast)',
      })}
    >
      {children}
    </div>
  );
}
