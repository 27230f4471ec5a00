import type { ReactNode } from 'react';
import { EmptyRow } from '../../../components/ui/empty-row';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
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
