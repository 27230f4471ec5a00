/**
 * Normalized error of the HTTP layer. Every failure of the API client ends up
 * as an ApiError so forms and statecharts only deal with one shape.
 * The server error body is `{ error: { code, message, fields } }` (docs/DESIGN.md §7).
 */
export type ApiErrorKind = 'network' | 'timeout' | 'http';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  code?: string;
  fields?: Record<string, string[]>;
  /** Seconds, from a 429 `Retry-After` header or `error.retry_after`. */
  retryAfter?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly fields?: Record<string, string[]>;
  readonly retryAfter?: number;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.retryAfter = init.retryAfter;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `{error:{code,message,fields,retry_after}}` defensively. */
export function parseErrorBody(body: unknown): { code?: string; message?: string; fields?: Record<string, string[]>; retryAfter?: number } {
  if (!isRecord(body) || !isRecord(body.error)) return {};
  const { code, message, fields, retry_after: retryAfter } = body.error;
  const out: { code?: string; message?: string; fields?: Record<string, string[]>; retryAfter?: number } = {};
  if (typeof code === 'string') out.code = code;
  if (typeof message === 'string') out.message = message;
  if (typeof retryAfter === 'number') out.retryAfter = retryAfter;
  if (isRecord(fields)) {
    const parsed: Record<string, string[]> = {};
    for (const [name, codes] of Object.entries(fields)) {
      if (Array.isArray(codes)) parsed[name] = codes.filter((c): c is string => typeof c === 'string');
      else if (typeof codes === 'string') parsed[name] = [codes];
    }
    out.fields = parsed;
  }
  return out;
}
