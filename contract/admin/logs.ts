/** Dashboard logs (super_admin and manager) and the audit trail of admin changes (super_admin). */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { listOf, pageQuery } from '../common';

export { LOGGED_ERROR_CODES, OIDC_ERROR_CODES, type OidcErrorCode } from './log-codes';

/** An instant in any form Date.parse reads, answered as ISO-8601. */
const isoDate = z.string().trim().max(40).refine((s) => !Number.isNaN(Date.parse(s)), { params: { code: 'invalid' } }).transform((s) => new Date(s).toISOString());
const errors = { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] } as const;

export const activityLogSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  email: z.string().nullable(),
  type: z.string().nullable(),
  client_id: z.string().nullable(),
  logged_in_at: z.string(),
  logged_out_at: z.string().nullable(),
  ip_address: z.string().nullable(),
  origin: z.string().nullable(),
  /** The upstream provider of a single sign-on (id and display name), null for a password sign-in. */
  provider: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;

export const dailyCountSchema = z.object({ day: z.string(), count: z.number().int() });
export type DailyCount = z.infer<typeof dailyCountSchema>;

export const errorLogSchema = z.object({
  id: z.string(),
  error_code: z.string(),
  status: z.number().int(),
  method: z.string(),
  url: z.string(),
  message: z.string(),
  user_email: z.string().nullable(),
  created_at: z.string(),
});
export type ErrorLog = z.infer<typeof errorLogSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip_address: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const listActivities = defineEndpoint({
  method: 'GET', path: '/api/admin/logs/activities', tag: 'admin: logs', access: 'admin', summary: 'Authentication activities, newest first',
  query: z.object({
    ...pageQuery,
    from: isoDate.optional(),
    to: isoDate.optional(),
    user: z.string().trim().max(254).optional().describe('e-mail (exact, case-insensitive) or account id'),
  }),
  response: listOf(activityLogSchema),
  errors,
});

export const dailySignIns = defineEndpoint({
  method: 'GET', path: '/api/admin/logs/activities/daily', tag: 'admin: logs', access: 'admin',
  summary: 'Sign-ins per day (UTC) over the last `days` days, for the dashboard chart',
  query: z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }),
  response: z.object({ data: z.array(dailyCountSchema) }),
  errors,
});

export const listErrors = defineEndpoint({
  method: 'GET', path: '/api/admin/logs/errors', tag: 'admin: logs', access: 'admin',
  summary: 'Error log (code, url, message, timestamp, user e-mail), newest first: every 5xx and a rate-limited sample of 4xx',
  query: z.object({
    ...pageQuery,
    from: isoDate.optional(),
    to: isoDate.optional(),
    code: z.string().trim().max(100).optional(),
    user: z.string().trim().max(254).optional().describe('user e-mail'),
  }),
  response: listOf(errorLogSchema),
  errors,
});

export const listAudit = defineEndpoint({
  method: 'GET', path: '/api/admin/audit', tag: 'admin: audit', access: 'super_admin',
  summary: 'Audit trail of admin changes (who, what, before/after without secrets, when)',
  query: z.object({
    ...pageQuery,
    actor: z.string().trim().max(254).optional().describe('actor id or e-mail'),
    action: z.string().trim().max(100).optional(),
    target_type: z.string().trim().max(50).optional(),
    target_id: z.string().trim().max(64).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  }),
  response: listOf(auditEntrySchema),
  errors,
});
