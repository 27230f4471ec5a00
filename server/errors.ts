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
export const tooManyRequests = (retryAfterSeconds: number, code = 'too_many_requests') =>
  new AppError(429, code, {
    params: { seconds: retryAfterSeconds },
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
