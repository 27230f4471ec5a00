import { z } from 'zod';

// The dashboard's URL state, apart from the screen: the route validates it up front while the screen loads lazily.
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional().catch(undefined);
const page = z.number().int().min(1).optional().catch(undefined);
const size = z.number().int().min(1).max(100).optional().catch(undefined);
const text = z.string().max(254).optional().catch(undefined);

/** URL search params: `a_*` for the activities table, `e_*` for the error log. */
export const dashboardSearchSchema = z.object({
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
});
export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;

export function activityFilters(s: DashboardSearch) {
  return { page: s.a_page ?? 1, size: s.a_size ?? 10, from: s.a_from, to: s.a_to, user: s.a_user?.trim() || undefined };
}
export function errorFilters(s: DashboardSearch) {
  return { page: s.e_page ?? 1, size: s.e_size ?? 10, from: s.e_from, to: s.e_to, code: s.e_code?.trim() || undefined, user: s.e_user?.trim() || undefined };
}
