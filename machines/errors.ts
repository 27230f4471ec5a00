/**
 * How every machine keeps a failed call: the contract's error code as sent (contract/error-codes.ts ERROR_CODES), plus
 * `network` (no answer) and `unexpected` (anything else), never a machine-local code. The screens show each code in
 * their area's words (one code → text table per catalog area: src/features/account/error-words.ts for the sign-in,
 * password and profile screens, src/features/admin/components/feedback.ts for the console). Field errors are kept
 * for their fields; `retryable` says whether trying the same thing again can help (only then does a screen offer
 * "Try again").
 */
import { isErrorCode, type ErrorCode } from '../contract/error-codes';
import type { ImportJobErrorCode } from '../contract/admin/import';
import { isCallFailure } from './shared';
import type { CeremonyErrorCode } from './webauthn';

/**
 * What a machine keeps as an error's code: a contract code, an import job's end (contract/admin/import.ts), a passkey
 * ceremony's outcome in the browser (machines/webauthn.ts), no answer, or anything else.
 */
export type MachineErrorCode = ErrorCode | ImportJobErrorCode | CeremonyErrorCode | 'network' | 'unexpected';

export interface MachineError {
  code: MachineErrorCode;
  status?: number;
  fields?: Record<string, string[]>;
  /** Seconds, from a 429. */
  retryAfter?: number;
  /** The same request may succeed later: no answer, a 5xx, a 429, an interrupted job. */
  retryable: boolean;
}

/** Codes that say "not now" rather than "not like this". */
export const RETRYABLE_CODES: readonly MachineErrorCode[] = [
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
  return (RETRYABLE_CODES as readonly string[]).includes(code);
}

/** A thrown error (normally the SPA's ApiError, see CallFailure in shared.ts) as a machine keeps it. */
export function toMachineError(error: unknown): MachineError {
  if (!isCallFailure(error)) return { code: 'unexpected', retryable: true };
  if (error.kind === 'network' || error.kind === 'timeout') return { code: 'network', retryable: true };
  const status = error.status;
  const code = isErrorCode(error.code) ? error.code : 'unexpected';
  const out: MachineError = { code, retryable: isRetryableCode(code) || (status !== undefined && (status >= 500 || status === 429)) };
  if (status !== undefined) out.status = status;
  if (error.fields && Object.keys(error.fields).length > 0) out.fields = error.fields;
  if (error.retryAfter !== undefined) out.retryAfter = error.retryAfter;
  return out;
}
