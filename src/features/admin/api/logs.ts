import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/call';
import { adminLogs as logs } from '../../../../contract/routes-admin';
import { adminKeys, compactQuery } from './keys';

export interface LogFilters {
  page: number;
  size: number;
  from?: string | undefined;
  to?: string | undefined;
  user?: string | undefined;
}

export interface ErrorLogFilters extends LogFilters {
  code?: string | undefined;
}

/** `YYYY-MM-DD` date inputs as ISO instants (from: start of the day, to: end of the day, local time). */
function dayBounds(filters: { from?: string | undefined; to?: string | undefined }): { from?: string; to?: string } {
  const out: { from?: string; to?: string } = {};
  if (filters.from) out.from = new Date(`${filters.from}T00:00:00`).toISOString();
  if (filters.to) out.to = new Date(`${filters.to}T23:59:59.999`).toISOString();
  return out;
}

export function activitiesQueryOptions(filters: LogFilters) {
  const query = compactQuery({ ...filters, ...dayBounds(filters) });
  return queryOptions({
    queryKey: adminKeys.activities(query),
    queryFn: ({ signal }) => call(logs.listActivities, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function dailySignInsQueryOptions(days = 30) {
  return queryOptions({
    queryKey: adminKeys.daily(days),
    queryFn: ({ signal }) => call(logs.dailySignIns, { query: { days } }, { signal }).then((r) => r.data),
  });
}

export function errorLogsQueryOptions(filters: ErrorLogFilters) {
  const query = compactQuery({ ...filters, ...dayBounds(filters) });
  return queryOptions({
    queryKey: adminKeys.errors(query),
    queryFn: ({ signal }) => call(logs.listErrors, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export interface AuditFilters {
  page: number;
  size: number;
  action?: string | undefined;
}

/** The audit trail of admin changes (super_admin only). */
export function auditQueryOptions(filters: AuditFilters) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.audit(query),
    queryFn: ({ signal }) => call(logs.listAudit, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}
