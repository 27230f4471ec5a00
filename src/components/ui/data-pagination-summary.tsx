import { Trans, useLingui } from '@lingui/react/macro';

export interface PaginationSummaryInput {
  /** Total number of items (a lower bound when `totalIsLowerBound`). */
  total: number;
  totalIsLowerBound?: boolean;
  hasNext?: boolean;
  /** 1-based page. */
  page: number;
  pageSize: number;
}

/**
 * The page count the pagination works with: with a lower bound, the pages known to exist (up to the bound, and one
 * past this page while there is a next).
 */
export function paginationCount({ total, totalIsLowerBound = false, hasNext = false, page, pageSize }: PaginationSummaryInput): number {
  return totalIsLowerBound ? Math.max(total, page * pageSize + (hasNext ? 1 : 0)) : total;
}

/**
 * 'from - to of total items' in the reader's language ("1.001 - 1.010 von 123.456"), whether the total is exact or a
 * lower bound ("… of 10 000+ items"). Shared by the pagination and its placeholder while it loads
 * (data-pagination-lazy.tsx).
 */
export function PaginationSummaryText(props: PaginationSummaryInput) {
  const { i18n } = useLingui();
  const { page, pageSize, totalIsLowerBound = false } = props;
  const count = paginationCount(props);
  const from = i18n.number(count === 0 ? 0 : (page - 1) * pageSize + 1);
  const to = i18n.number(Math.min(page * pageSize, count));
  const total = i18n.number(props.total);
  const totalText = total;
  return totalIsLowerBound ? (
    <Trans>
      {from} - {to} of {totalText}+ items
    </Trans>
  ) : (
    <Trans>
      {from} - {to} of {total} items
    </Trans>
  );
}
