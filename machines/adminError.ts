/**
 * How the admin machines keep a failed call: the contract's error code as sent (the screens show each code in its
 * own localized words, src/features/admin/components/feedback.ts), the field errors (put beside their fields) and
 * whether trying the same thing again can help (only then does a screen offer "Try again").
 */
import { isCallFailure } from './shared';

export interface AdminError {
  /** A code of contract/errors.ts (or a job's error code), `network` when no answer came, `unexpected` otherwise. */
  code: string;
  status?: number;
  fields?: Record<string, string[]>;
  /** Seconds, from a 429. */
  retryAfter?: number;
  /** The same request may succeed later: no answer, a 5xx, a 429, an interrupted job. */
  retryable: boolean;
}

/** Codes that say "not now" rather than "not like this". */
export const RETRYABLE_CODES: readonly string[] = [
  'internal_error',
  'service_unavailable',
  'database_unavailable',
  'redis_unavailable',
  'shutting_down',
  'too_many_requests',
  'sms_send_failed',
  'sso_failed',
  'import_interrupted',
];

export function isRetryableCode(code: string): boolean {
  return RETRYABLE_CODES.includes(code);
}

export function toAdminError(error: unknown): AdminError {
  if (!isCallFailure(error)) return { code: 'unexpected', retryable: true };
  if (error.kind === 'network' || error.kind === 'timeout') return { code: 'network', retryable: true };
  const status = error.status;
  const code = error.code ?? 'unexpected';
  const out: AdminError = { code, retryable: isRetryableCode(code) || (status !== undefined && (status >= 500 || status === 429)) };
  if (status !== undefined) out.status = status;
  if (error.fields && Object.keys(error.fields).length > 0) out.fields = error.fields;
  if (error.retryAfter !== undefined) out.retryAfter = error.retryAfter;
  return out;
}
