import fp from 'fastify-plugin';
import { AppError } from '../../errors';

// eslint-disable-next-line no-control-regex -- the point is to find control characters
const NUL = /\u0000/;

/** Path of the first string holding a NUL byte, or null. */
function findNul(value: unknown, path: string[] = [], depth = 0): string | null {
  if (depth > 20) return null;
  if (typeof value === 'string') return NUL.test(value) ? path.join('.') || '_' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], [...path, String(i)], depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = NUL.test(k) ? [...path, k].join('.') : findNul(v, [...path, k], depth + 1);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * NUL bytes are never valid input and PostgreSQL refuses them in text (a 500 otherwise):
 * refuse them once for every route's params, query and JSON body, before validation.
 */
export default fp(async (app) => {
  app.addHook('preValidation', (req, _reply, done) => {
    const field = findNul(req.params) ?? findNul(req.query) ?? (req.isMultipart() ? null : findNul(req.body));
    done(field ? new AppError(422, 'validation_failed', { fields: { [field]: ['invalid'] } }) : undefined);
  });
});
