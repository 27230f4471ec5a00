/**
 * The one error type routes throw. The error handler renders it as
 * `{ error: { code, message, fields } }` with the message localized by `code`.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldErrors | undefined;
  readonly params: Record<string, string | number> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: string,
    opts: {
      fields?: FieldErrors;
      params?: Record<string, string | number>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(code, { cause: opts.cause });
    this.status = status;
    this.code = code;
    this.fields = opts.fields;
    this.params = opts.params;
    this.headers = opts.headers;
  }
}

export const badRequest = (code = 'bad_request', fields?: FieldErrors) => new AppError(400, code, { fields });
export const unauthorized = (code = 'unauthorized') => new AppError(401, code);
export const forbidden = (code = 'forbidden') => new AppError(403, code);
export const notFound = (code = 'not_found') => new AppError(404, code);
export const conflict = (code = 'conflict', fields?: FieldErrors, params?: Record<string, string | number>) =>
  new AppError(409, code, { fields, params });
export const validationFailed = (fields: FieldErrors) => new AppError(422, 'validation_failed', { fields });
/**
 * A second factor left empty or wrong: one code on every endpoint that takes one (the sign-in's second factor, the
 * 2FA enrollment, disabling 2FA), with the field it belongs to (`one_time_password`, or `recovery_code` at sign-in).
 */
export const otpRequired = (field = 'one_time_password') => new AppError(422, 'otp_required', { fields: { [field]: ['otp_required'] } });
export const otpInvalid = () => new AppError(422, 'otp_invalid', { fields: { one_time_password: ['otp_invalid'] } });
export const tooManyRequests = (retryAfterSeconds: number, code = 'too_many_requests') =>
  new AppError(429, code, {
    params: { seconds: retryAfterSeconds },
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/**
 * A dependency (database, Redis) is unreachable, too slow or dropped the connection. The error handler
 * answers 503 `service_unavailable` with Retry-After; nothing about the cause reaches the client.
 * `kind`: unreachable (refused, connect/read timeout), terminated (connection dropped), busy (pool
 * saturated, statement timeout, SQLite busy), circuit_open (failing fast until the dependency answers again).
 */
export type Dependency = 'database' | 'redis';
export type DependencyFailure = 'unreachable' | 'terminated' | 'busy' | 'circuit_open';

export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: Dependency,
    readonly kind: DependencyFailure,
    cause?: unknown,
  ) {
    super(`${dependency} ${kind}`, { cause });
    this.name = 'DependencyUnavailableError';
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/** How a database driver error relates to availability (PostgreSQL via pg, SQLite via better-sqlite3); null when it does not. */
export function databaseFailureOf(err: unknown): DependencyFailure | null {
  if (!(err instanceof Error)) return null;
  if (err instanceof DependencyUnavailableError) return err.dependency === 'database' ? err.kind : null;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return code === 'ECONNRESET' || code === 'EPIPE' ? 'terminated' : 'unreachable';
    if (code === '57P03' || code === '57P02') return 'unreachable'; // cannot_connect_now (starting/shutting down), crash_shutdown
    if (code === '57P01' || code.startsWith('08')) return 'terminated'; // admin_shutdown (pg_terminate_backend), connection exception
    if (code === '57014' || code === '53300' || code === '53400') return 'busy'; // statement timeout, too many connections
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT') return 'busy';
  }
  const m = err.message;
  if (m === 'Query read timeout' || m.startsWith('Connection terminated due to connection timeout')) return 'unreachable';
  if (m === 'timeout exceeded when trying to connect') return 'busy';
  if (m.startsWith('Connection terminated') || m.includes('is not queryable') || m === 'Cannot use a pool after calling end on the pool') return 'terminated';
  return null;
}

/** Whether an ioredis error means Redis is unreachable or too slow (not a script/reply error). */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof DependencyUnavailableError) return err.dependency === 'redis';
  if (err.name === 'MaxRetriesPerRequestError') return true;
  const m = err.message;
  if (m === 'Command timed out' || m === 'Connection is closed.' || m.startsWith("Stream isn't writeable")) return true;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && NETWORK_CODES.has(code) && err.constructor.name !== 'ReplyError';
}
