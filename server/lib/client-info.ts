import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../services/sign-in';

/** Where a request comes from, as plain values for the services (address, Origin or Referer, User-Agent). */
export function clientInfoOf(request: FastifyRequest): ClientInfo {
  const origin = request.headers.origin ?? request.headers.referer ?? null;
  return {
    ip: request.ip,
    origin: typeof origin === 'string' ? origin : null,
    userAgent: request.headers['user-agent'] ?? null,
  };
}
