import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import { visuallyHidden } from '../visually-hidden';
import * as Table from './table';

const shimmer = css({
  display: 'block',
  height: '3',
  borderRadius: 'sm',
  bg: 'bg.muted',
  animation: 'pulse 1.4s ease-in-out infinite',
});

export interface SkeletonRowsProps {
  columns: number;
  rows?: number | undefined;
}

/** Loading placeholder rows. */
export function SkeletonRows({ columns, rows = 5 }: SkeletonRowsProps) {
  const { t } = useLingui();
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <Table.Row key={r} aria-hidden={r > 0 ? true : undefined}>
          {Array.from({ length: columns }, (_, c) => (
            <Table.Cell key={c}>
              {r === 0 && c === 0 ? <span className={visuallyHidden}>{t`Loading…`}</span> : null}
              <span className={shimmer} style={{ width: `${55 + ((r * 7 + c * 13) % 40)}%` }} />
            </Table.Cell>
          ))}
        </Table.Row>
      ))}
    </>
  );
}
