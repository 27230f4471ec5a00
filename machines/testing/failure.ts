import type { CallFailure } from '../shared';

/** A failed call as the machines see it (the SPA's ApiError, src/api/errors.ts, has the same shape). */
export class CallFailureError extends Error implements CallFailure {
  readonly kind: CallFailure['kind'];
  readonly status?: number;
  readonly code?: string;
  readonly fields?: Record<string, string[]>;
  readonly retryAfter?: number;

  constructor(init: CallFailure & { message: string }) {
    super(init.message);
    this.name = 'CallFailureError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.retryAfter = init.retryAfter;
  }
}
