import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

export interface DetailListProps {
  items: Array<{ label: ReactNode; value: ReactNode; key: string }>;
}

/** Label/value pairs (user information). */
export function DetailList({ items }: DetailListProps) {
  return (
    <dl className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })}>
      {items.map((item) => (
        <div key={item.key} className={css({ minWidth: '0' })}>
          <dt className={css({ fontSize: 'xs', fontWeight: 'medium', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: 'wide' })}>{item.label}</dt>
          <dd className={css({ fontSize: 'sm', mt: '1', wordBreak: 'break-word' })}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
