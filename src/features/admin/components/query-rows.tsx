import type { ReactNode } from 'react';
import { EmptyRow } from '../../../components/ui/empty-row';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { useErrorText } from './feedback';

export interface QueryRowsProps<T> {
  query: { isPending: boolean; isError: boolean; error: unknown };
  items: readonly T[];
  columns: number;
  skeletonRows?: number;
  empty: ReactNode;
  children: (item: T) => ReactNode;
}

/**
 * Table body for a list query: skeleton rows while it loads, the error as an alert (in the admin screens' words),
 * the empty message, else one rendered row per item.
 */
export function QueryRows<T>({ query, items, columns, skeletonRows, empty, children }: QueryRowsProps<T>) {
  const errorText = useErrorText();
  if (query.isPending) return <SkeletonRows columns={columns} rows={skeletonRows} />;
  if (query.isError)
    return (
      <EmptyRow columns={columns}>
        <span role="alert">{errorText(query.error)}</span>
      </EmptyRow>
    );
  if (items.length === 0) return <EmptyRow columns={columns}>{empty}</EmptyRow>;
  return <>{items.map(children)}</>;
}

export interface QueryTableProps<T> extends QueryRowsProps<T> {
  /** The table's name (its frame's region label). */
  label: string;
  query: QueryRowsProps<T>['query'] & { isFetching: boolean };
  /** The header row's cells. */
  headers: ReactNode;
}

/**
 * A list query's table in its frame (components/ui/table-frame.tsx): the header row, then QueryRows' body; the frame
 * is marked busy while a new page or filter loads over the rows shown.
 */
export function QueryTable<T>({ label, headers, ...rows }: QueryTableProps<T>) {
  return (
    <TableFrame label={label} busy={rows.query.isFetching && !rows.query.isPending}>
      <Table.Root>
        <Table.Head>
          <Table.Row>{headers}</Table.Row>
        </Table.Head>
        <Table.Body>
          <QueryRows {...rows} />
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}
