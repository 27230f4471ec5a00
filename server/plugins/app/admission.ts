import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { createAdmission, type AdmissionStep, type Release } from '../../lib/admission';
import { busyPage } from '../../oidc/pages';

/** How often the refusal counter writes its line (when there were refusals). */
const LOG_INTERVAL_MS = 10_000;

/**
 * Admission control of the sign-in flow (server/lib/admission.ts): `app.admission` holds the gates, sized from
 * IAM_HASH_CONCURRENCY / IAM_HASH_QUEUE; `admit(step, answer)` is the `onRequest` hook a route puts in front of its
 * work. Refusals are counted and written as one line every 10 s, never one line (or stack trace) each.
 */
export default fp(async (app) => {
  const admission = createAdmission(app.config.hashGate, app.log);
  app.decorate('admission', admission);
  const timer = setInterval(() => admission.refusals.flush(), LOG_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    admission.refusals.flush();
  });
});

/**
 * How a refusal is answered: `api` the product's error body `{error:{code:'service_unavailable',message}}`;
 * `oauth` an OAuth error body (`temporarily_unavailable`); `page` the product's HTML page for a browser
 * (Accept: text/html), else the OAuth body. Always 503 with Retry-After and no-store.
 */
export type RefusalAnswer = 'api' | 'oauth' | 'page';

function refuse(req: FastifyRequest, reply: FastifyReply, answer: RefusalAnswer, retryAfter: number): FastifyReply {
  reply.code(503).header('retry-after', String(retryAfter)).header('cache-control', 'no-store');
  if (answer === 'api') return reply.type('application/json; charset=utf-8').send({ error: { code: 'service_unavailable', message: req.t('service_unavailable') } });
  if (answer === 'page' && /text\/html/.test(String(req.headers.accept ?? ''))) {
    return reply.type('text/html; charset=utf-8').send(busyPage(req.lang, req.url, retryAfter));
  }
  return reply.type('application/json; charset=utf-8').send({ error: 'temporarily_unavailable', error_description: req.t('service_unavailable') });
}

/** The `onRequest` hook that admits a request to `step` or refuses it at once (503 + Retry-After). */
export function admit(step: AdmissionStep, answer: RefusalAnswer): onRequestAsyncHookHandler {
  return async function admission(req, reply) {
    const { gates, refusals, retryAfterSeconds } = req.server.admission;
    const entered = gates[step].enter();
    if (!entered) {
      refusals.count(step);
      return refuse(req, reply, answer, retryAfterSeconds);
    }
    // the slot is given back when the answer is sent or the connection closes, whichever comes first (also for
    // replies the OIDC provider writes itself, and for a client that gave up while waiting in the queue)
    const slot: { release?: Release; done: boolean } = { done: false };
    const finished = () => {
      slot.done = true;
      slot.release?.();
    };
    reply.raw.once('finish', finished);
    reply.raw.once('close', finished);
    slot.release = entered instanceof Promise ? await entered : entered;
    if (slot.done) slot.release();
    return undefined;
  };
}
