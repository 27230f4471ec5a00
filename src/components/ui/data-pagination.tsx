import { Pagination as ArkPagination } from '@ark-ui/react/pagination';
import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { pagination } from 'styled-system/recipes';
import { PaginationSummaryText, paginationCount } from './data-pagination-summary';
import { ChevronLeftIcon, ChevronRightIcon } from './icons-more';
import { SimpleSelect } from './simple-select';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(pagination);

const Root = withProvider(ArkPagination.Root, 'root');
const PrevTrigger = withContext(ArkPagination.PrevTrigger, 'prevTrigger');
const NextTrigger = withContext(ArkPagination.NextTrigger, 'nextTrigger');
const Item = withContext(ArkPagination.Item, 'item');
const Ellipsis = withContext(ArkPagination.Ellipsis, 'ellipsis');
const Summary = withContext('p', 'summary');
/** After the last page button when the total is a lower bound: more pages exist than the buttons show. */
const MorePages = withContext('span', 'ellipsis');
const PageSize = withContext('div', 'pageSize');

const DEFAULT_PAGE_SIZES = [10, 25, 50, 100] as const;

export interface DataPaginationProps {
  /** Total number of items (a lower bound when `totalIsLowerBound`). */
  total: number;
  /** The list holds at least `total` items ("10 000+"): the last page is unknown; next stays enabled while `hasNext`. */
  totalIsLowerBound?: boolean;
  /** Whether a page follows this one (with a lower-bound total). */
  hasNext?: boolean;
  /** 1-based page. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  pageSizes?: readonly number[];
}

/** List pagination: 'from - to of total items', page buttons and an items-per-page select. */
export function DataPagination({ total: totalCount, totalIsLowerBound = false, hasNext = false, page, pageSize, onPageChange, onPageSizeChange, pageSizes = DEFAULT_PAGE_SIZES }: DataPaginationProps) {
  const { t, i18n } = useLingui();
  const summaryId = useId();
  const count = paginationCount({ total: totalCount, totalIsLowerBound, hasNext, page, pageSize });
  return (
    <Root
      count={count}
      pageSize={pageSize}
      page={page}
      siblingCount={1}
      onPageChange={(details) => onPageChange(details.page)}
      aria-describedby={summaryId}
      translations={{
        rootLabel: t`Pagination`,
        prevTriggerLabel: t`Previous page`,
        nextTriggerLabel: t`Next page`,
        // with a lower bound the page count is one too: "Page 3 of 1 000+", never a last page that is not the last
        itemLabel: ({ page: item, totalPages }) => {
          const p = i18n.number(item);
          const pages = i18n.number(totalPages);
          return totalIsLowerBound ? t`Page ${p} of ${pages}+` : t`Page ${p} of ${pages}`;
        },
      }}
    >
      <Summary id={summaryId} aria-live="polite">
        <PaginationSummaryText total={totalCount} totalIsLowerBound={totalIsLowerBound} hasNext={hasNext} page={page} pageSize={pageSize} />
      </Summary>
      {/* the page buttons wrap on a phone (with 1 2 3 4 5 … 9 they are wider than a 360 px screen's list) */}
      <div style={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: '0.25rem', minWidth: 0 }}>
        <PrevTrigger>
          <ChevronLeftIcon width={16} height={16} />
        </PrevTrigger>
        <ArkPagination.Context>
          {(api) =>
            api.pages.map((item, index) =>
              item.type === 'page' ? (
                <Item key={`p-${item.value}`} {...item}>
                  {item.value}
                </Item>
              ) : (
                <Ellipsis key={`e-${index}`} index={index}>
                  &#8230;
                </Ellipsis>
              ),
            )
          }
        </ArkPagination.Context>
        {totalIsLowerBound ? (
          <MorePages aria-hidden="true" data-testid="pagination-more">
            &#8230;
          </MorePages>
        ) : null}
        <NextTrigger>
          <ChevronRightIcon width={16} height={16} />
        </NextTrigger>
      </div>
      <PageSize>
        <SimpleSelect
          label={t`Items per page`}
          size="sm"
          options={pageSizes.map((size) => ({ value: String(size), label: String(size) }))}
          value={String(pageSize)}
          onValueChange={(value) => onPageSizeChange(Number(value))}
        />
      </PageSize>
    </Root>
  );
}
