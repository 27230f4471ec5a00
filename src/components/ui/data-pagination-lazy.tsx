import { useLingui } from '@lingui/react/macro';
import { pagination } from 'styled-system/recipes';
import type { DataPaginationProps } from './data-pagination';
import { PaginationSummaryText } from './data-pagination-summary';
import { lazyWithPlaceholder } from './lazy-with-placeholder';
import { SelectPlaceholder } from './simple-select-lazy';

/**
 * DataPagination, loaded when first shown: its machinery (Ark UI / zag pagination, zag's React machine runtime and
 * the page-size select's zag select) is not part of the first load of a page that shows a pagination under its list
 * (the admin dashboard's logs). Until it arrives, a few milliseconds after the page renders, the same summary
 * ("1 - 10 of 42 items") and a copy of the items-per-page select show, not yet operable; then the real pagination
 * (page buttons; keyboard and screen-reader semantics: Ark's) takes its place. Same props as DataPagination.
 */
export const DataPagination = lazyWithPlaceholder<DataPaginationProps>(() => import('./data-pagination').then((m) => m.DataPagination), PaginationPlaceholder);

/** The pagination's look while it loads: the summary and the page-size select's placeholder, no page buttons yet. */
function PaginationPlaceholder({ total, totalIsLowerBound, hasNext, page, pageSize }: DataPaginationProps) {
  const { t } = useLingui();
  const classes = pagination();
  return (
    <div className={classes.root} aria-busy="true" data-testid="pagination-placeholder">
      <p className={classes.summary}>
        <PaginationSummaryText total={total} totalIsLowerBound={totalIsLowerBound} hasNext={hasNext} page={page} pageSize={pageSize} />
      </p>
      <div className={classes.pageSize}>
        <SelectPlaceholder label={t`Items per page`} size="sm" options={[{ value: String(pageSize), label: String(pageSize) }]} value={String(pageSize)} onValueChange={() => undefined} />
      </div>
    </div>
  );
}
