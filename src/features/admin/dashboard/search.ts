import { intParam, searchValidator, stringParam } from '../../../lib/search-params';

// The dashboard's URL state, apart from the screen: the route validates it up front while the screen loads lazily.
const day = stringParam(Infinity, /^\d{4}-\d{2}-\d{2}$/);
const page = intParam(1);
const size = intParam(1, 100);
const text = stringParam(254);

/** URL search params: `a_*` for the activities table, `e_*` for the error log, `u_*` for the audit trail. */
export const dashboardSearchSchema = searchValidator({
  a_page: page,
  a_size: size,
  a_from: day,
  a_to: day,
  a_user: text,
  e_page: page,
  e_size: size,
  e_from: day,
  e_to: day,
  e_code: text,
  e_user: text,
  u_page: page,
  u_size: size,
  u_action: stringParam(100),
});
export type DashboardSearch = ReturnType<typeof dashboardSearchSchema>;

export function activityFilters(s: DashboardSearch) {
  return { page: s.a_page ?? 1, size: s.a_size ?? 10, from: s.a_from, to: s.a_to, user: s.a_user?.trim() || undefined };
}
export function errorFilters(s: DashboardSearch) {
  return { page: s.e_page ?? 1, size: s.e_size ?? 10, from: s.e_from, to: s.e_to, code: s.e_code?.trim() || undefined, user: s.e_user?.trim() || undefined };
}
export function auditFilters(s: DashboardSearch) {
  return { page: s.u_page ?? 1, size: s.u_size ?? 10, action: s.u_action?.trim() || undefined };
}
