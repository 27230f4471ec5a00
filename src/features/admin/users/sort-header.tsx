import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import type { UserSort } from '../../../../contract/admin/users';
import { ChevronDownIcon } from '../../../components/ui/icons';
import * as Table from '../../../components/ui/table';

type Column = 'name' | 'email' | 'created_at';

/**
 * A column header the list can be sorted by (server-side, USER_SORTS): a button inside the header toggles ascending /
 * descending, and the header announces the current order with aria-sort. Without `sort` the list is newest first.
 */
export function SortHeader({ label, column, sort, onSort }: { label: string; column: Column; sort: UserSort | undefined; onSort: (sort: UserSort | undefined) => void }) {
  const { t } = useLingui();
  const current = sort ?? '-created_at';
  const direction = current === column ? 'ascending' : current === `-${column}` ? 'descending' : 'none';
  const next = (direction === 'ascending' ? `-${column}` : column) as UserSort;
  return (
    <Table.Header aria-sort={direction}>
      <button
        type="button"
        onClick={() => onSort(next === '-created_at' ? undefined : next)}
        title={direction === 'ascending' ? t`Sort descending` : t`Sort ascending`}
        className={css({ display: 'inline-flex', alignItems: 'center', gap: '1', font: 'inherit', color: 'inherit', bg: 'transparent', cursor: 'pointer', p: '0', _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' } })}
      >
        {label}
        {direction === 'none' ? null : (
          <ChevronDownIcon width={14} height={14} aria-hidden className={css({ transform: direction === 'ascending' ? 'rotate(180deg)' : undefined })} />
        )}
      </button>
    </Table.Header>
  );
}
