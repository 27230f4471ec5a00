import type { LightMyRequestResponse } from 'fastify';

/** The stable error code of a product error answer ({error:{code}}), or undefined for any other body. */
export function errorCode(res: LightMyRequestResponse): string | undefined {
  try {
    return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
