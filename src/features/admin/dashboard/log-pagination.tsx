import type { ListMeta } from '../api/types';
import { DataPagination } from '../../../components/ui/data-pagination-lazy';

/**
 * The pagination under one of the dashboard's lists, once the list has entries. The page goes to `onPage` (undefined
 * for the first, which the URL leaves out); a new page size goes to `onSize`, and the caller starts again at page 1.
 */
export function LogPagination({ meta, onPage, onSize }: { meta: ListMeta | undefined; onPage: (page: number | undefined) => void; onSize: (size: number) => void }) {
  if (!meta || meta.total === 0) return null;
  return <DataPagination total={meta.total} page={meta.page} pageSize={meta.size} onPageChange={(p) => onPage(p === 1 ? undefined : p)} onPageSizeChange={onSize} />;
}
