import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, DependencyUnavailableError, databaseFailureOf, isRedisUnavailable, type Dependency, type FieldErrors } from '../../errors';
import { dependencyUnavailable } from '../../lib/metrics';
import { outageLogFor } from '../../lib/outage-log';
import { collectFieldErrors, issueToFieldIssues, type FieldIssue } from '../../lib/validation';
import { FALLBACK_LANGUAGE, translate } from '../../i18n/index';

interface ErrorBody {
  error: { code: string; message: string; fields?: FieldErrors; field_messages?: Record<string, string[]>; request_id?: string };
}

/** Path without query string: query strings may carry tokens and must not reach logs. */
const safeUrl = (req: FastifyRequest) => req.url.split('?')[0] ?? req.url;

/** `email: email_taken; phone: invalid` — field names and codes, never the values sent. */
const fieldSummary = (fields: FieldErrors | undefined) =>
  fields ? Object.entries(fields).map(([name, codes]) => `${name}: ${codes.join(', ')}`).join('; ') : '';

/**
 * Hands an answered error to the error log (server/services/error-log.ts decides whether it is recorded: client
 * errors are rate-limited). The message is in English whatever the request's language.
 */
export async function recordError(req: FastifyRequest, status: number, code: string, detail: { params?: Record<string, string | number> | undefined; fields?: FieldErrors | undefined; message?: string } = {}): Promise<void> {
  const fields = fieldSummary(detail.fields);
  const message = detail.message ?? translate(FALLBACK_LANGUAGE, code, detail.params ?? {});
  await req.server.services.errorLog.record({
    status,
    code,
    method: req.method,
    route: req.routeOptions.url ?? null,
    params: (req.params ?? {}) as Record<string, string>,
    path: safeUrl(req),
    message: fields ? `${message} (${fields})` : message,
    userEmail: req.auth?.account.email ?? null,
  });
}

/** The dependency (database, Redis) an error says is unreachable or too slow, following `cause`; null otherwise. */
export function unavailableDependency(err: unknown): Dependency | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DependencyUnavailableError) return e.dependency;
    if (databaseFailureOf(e)) return 'database';
    if (isRedisUnavailable(e)) return 'redis';
    if (e instanceof AppError && e.status < 500) return null;
  }
  return null;
}

/** Seconds a client should wait before retrying while a dependency is down. */
const RETRY_AFTER_SECONDS = 5;

/** The one error handler: every failure becomes `{error:{code,message,fields}}`, localized. */
export default fp(async (app) => {
  // one line at the first 503 of an outage, then one line per dependency and window with the count (not one per request)
  const outageLog = outageLogFor(app.log, app.config.timeouts.outageLogMs);
  app.addHook('onClose', async () => outageLog.flush());
  const recordOutage = (req: FastifyRequest, dependency: Dependency, err: Error) =>
    outageLog.record(dependency, { reqId: String(req.id), route: req.routeOptions.url ?? 'unmatched', err: err.cause instanceof Error ? err.cause.message : err.message, source: 'api' });

  app.setErrorHandler(async (err: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) => {
    const send = (status: number, body: ErrorBody, headers?: Record<string, string>) => {
      if (headers) reply.headers(headers);
      return reply.status(status).type('application/json; charset=utf-8').send(body);
    };

    // database or Redis unreachable/too slow: a fast 503 the client can retry, nothing about the cause, not logged to the database
    const dependency = unavailableDependency(err);
    if (dependency && !(err instanceof AppError && err.status === 503)) {
      dependencyUnavailable.inc({ dependency });
      recordOutage(req, dependency, err);
      return send(
        503,
        { error: { code: 'service_unavailable', message: req.t('service_unavailable'), request_id: String(req.id) } },
        { 'retry-after': String(RETRY_AFTER_SECONDS), 'cache-control': 'no-store' },
      );
    }

    if (err instanceof AppError) {
      let extra: Partial<ErrorBody['error']> = {};
      if (err.fields) {
        const issues: FieldIssue[] = Object.entries(err.fields).flatMap(([field, codes]) =>
          codes.map((code) => ({ field, code, params: err.params ?? {} })),
        );
        extra = collectFieldErrors(issues, req.lang);
      }
      if (err.status === 503) {
        if (dependency) recordOutage(req, dependency, err);
        else req.log.warn({ code: err.code }, 'service unavailable');
      }
      else {
        if (err.status >= 500) req.log.error({ err: err.cause ?? err }, err.code);
        await recordError(req, err.status, err.code, { params: err.params, fields: err.fields });
      }
      return send(err.status, { error: { code: err.code, message: req.t(err.code, err.params), ...extra } }, err.headers);
    }

    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.flatMap((v) =>
        issueToFieldIssues({
          ...(v.params as Record<string, unknown>),
          code: v.keyword,
          message: v.message,
          path: v.instancePath.split('/').filter(Boolean),
        }),
      );
      const collected = collectFieldErrors(issues, req.lang);
      await recordError(req, 422, 'validation_failed', { fields: collected.fields });
      return send(422, { error: { code: 'validation_failed', message: req.t('validation_failed'), ...collected } });
    }

    const status = err.statusCode ?? 500;
    if (status === 429) {
      const retry = reply.getHeader('retry-after');
      await recordError(req, 429, 'too_many_requests', { params: { seconds: Number(retry) || 60 } });
      return send(429, { error: { code: 'too_many_requests', message: req.t('too_many_requests', { seconds: Number(retry) || 60 }) } });
    }
    if (status === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE') {
      await recordError(req, 413, 'payload_too_large');
      return send(413, { error: { code: 'payload_too_large', message: req.t('payload_too_large') } });
    }
    if (status === 415) {
      await recordError(req, 415, 'unsupported_media_type');
      return send(415, { error: { code: 'unsupported_media_type', message: req.t('unsupported_media_type') } });
    }
    if (status >= 400 && status < 500) {
      // malformed JSON, bad content-length, invalid multipart...
      const [answer, code] = status === 404 ? [404, 'not_found'] : [400, 'bad_request'];
      await recordError(req, answer, code);
      return send(answer, { error: { code, message: req.t(code) } });
    }

    const requestId = String(req.id);
    req.log.error({ err }, 'unhandled error');
    // only the error's class and code: messages can carry values (SQL parameters, tokens)
    await recordError(req, 500, 'internal_error', { message: [err.name, err.code].filter(Boolean).join(' ') });
    return send(500, { error: { code: 'internal_error', message: req.t('internal_error'), request_id: requestId } });
  });
});
