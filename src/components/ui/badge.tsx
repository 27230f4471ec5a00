import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';

export type BadgeTone = 'neutral' | 'success' | 'danger' | 'info' | 'warning';

const toneStyles: Record<BadgeTone, string> = {
  neutral: css({ bg: 'bg.subtle', color: 'fg.muted', borderColor: 'border.default' }),
  success: css({ bg: 'success.50', color: 'success.700', borderColor: 'success.50' }),
  danger: css({ bg: 'danger.50', color: 'danger.700', borderColor: 'danger.50' }),
  info: css({ bg: 'brand.50', color: 'brand.800', borderColor: 'brand.100' }),
  warning: css({ bg: 'warning.50', color: 'warning.700', borderColor: 'warning.50' }),
};

export interface BadgeProps {
  tone?: BadgeTone;
  children: ReactNode;
}

/** A short status label, coloured by tone. */
export function Badge({ tone = 'neutral', children }: BadgeProps) {
  return (
    <span
      className={cx(
        css({ display: 'inline-flex', alignItems: 'center', gap: '1', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: 'medium', borderWidth: '1px', whiteSpace: 'nowrap' }),
        toneStyles[tone],
      )}
    >
      {children}
    </span>
  );
}
