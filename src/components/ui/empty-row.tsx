import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import * as Table from './table';

export interface EmptyRowProps {
  columns: number;
  children: ReactNode;
}

/** One full-width row with a message (empty list, no search results). */
export function EmptyRow({ columns, children }: EmptyRowProps) {
  return (
    <Table.Row>
      <Table.Cell colSpan={columns} className={css({ textAlign: 'center', py: '10', color: 'fg.muted' })}>
        {children}
      </Table.Cell>
    </Table.Row>
  );
}
