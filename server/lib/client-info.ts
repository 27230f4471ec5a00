import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../services/sign-in';

/**
 * The client's country from the header the operator named (IAM_PLACE_HEADER, set by a trusted proxy): an ISO 3166-1
 * alpha-2 code, upper-cased; null without the setting, without the header, or for anything else (Cloudflare's `XX`
 * unknown and `T1` Tor included).
 */
export function placeOf(request: Pick<FastifyRequest, 'headers'>, header: string | undefined): string | null {
  if (!header) return null;
  const raw = request.headers[header];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
  return value && /^[A-Z]{2}$/.test(value) && value !== 'XX' ? value : null;
}

/** Where a request comes from, as plain values for the services (address, Origin or Referer, User-Agent, place). */
export function clientInfoOf(request: FastifyRequest): ClientInfo {
  const origin = request.headers.origin ?? request.headers.referer ?? null;
  return {
    ip: request.ip,
    origin: typeof origin === 'string' ? origin : null,
    userAgent: request.headers['user-agent'] ?? null,
    place: placeOf(request, request.server.config.placeHeader),
  };
}
