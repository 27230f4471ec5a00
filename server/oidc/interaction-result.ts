import { z } from 'zod';
import { upstreamSignInOf } from './upstream-sessions';

/**
 * The `result` of a provider interaction (oidc-provider's `Interaction#result`, kept in the provider's store with the
 * interaction): one shape for every part of it, written by the sign-in service (server/services/sign-in.ts: `pending`,
 * then `login` + `activity`, or a refusal's `error`) and the consent step (server/oidc/consent.ts: `consent`, or
 * `error`), read by the sign-in service (`pending`), the provider's hooks (server/oidc/provider.ts: `login`,
 * `consent`, `activity`) and the "no access" page (server/routes/oidc-pages.routes.ts: `error`, `unmet`).
 *
 * Server-only (no answer carries it), so it lives here rather than in contract/. Reading checks each part on its own
 * (readInteractionResult): a part that does not parse is left out, the others stay, as the hand-written readers
 * before it did.
 */

/** A passed password step waiting for its second factor (the second-factor endpoints read it back, never the client). */
const pendingSignInSchema = z.object({
  accountId: z.string(),
  type: z.enum(['user', 'admin']),
  /** the second factor asked for; PASSKEY: the account's only second factor is a passkey (issue 33) */
  method: z.enum(['GOOGLE', 'SMS', 'PASSKEY']),
  /** epoch seconds */
  passwordAt: z.number(),
  /** the methods passed so far; a value from before the field existed reads as `['pwd']` */
  amr: z.unknown().transform((v): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : ['pwd'])),
  /** `second_factor`: waiting for the second factor; `enrol`: every factor passed, a passkey must be registered first (a value from before reads as `second_factor`) */
  stage: z.unknown().transform((v): 'second_factor' | 'enrol' => (v === 'enrol' ? 'enrol' : 'second_factor')),
  /** the stage `enrol` requirement (an admin setting, server/services/passkeys.ts) */
  requirement: z.enum(['second_factor', 'passkey']).optional(),
});

const stringOrNull = z.unknown().transform((v): string | null => (typeof v === 'string' ? v : null));

/**
 * A sign-in waiting for its browser: recorded in auth_activities only when the provider completes the authorization
 * with it (server/oidc/activity.ts).
 */
const pendingActivitySchema = z.object({
  id: z.string(),
  accountId: z.string(),
  ip: z.string(),
  origin: stringOrNull,
  userAgent: stringOrNull,
  /** The client's country from IAM_PLACE_HEADER (server/lib/client-info.ts placeOf), else null. */
  place: stringOrNull,
  /** An SSO sign-in: the upstream provider and its ID token, remembered with the session for the upstream sign-out. */
  upstream: z.unknown().transform(upstreamSignInOf).optional(),
});

/** What oidc-provider reads as the finished sign-in (its `login` result). */
const loginSchema = z.object({
  accountId: z.string(),
  acr: z.string(),
  amr: z.array(z.string()),
  remember: z.boolean(),
  /** epoch seconds */
  ts: z.number(),
});

const parts = {
  pending: pendingSignInSchema,
  login: loginSchema,
  activity: pendingActivitySchema,
  /** the grant the consent step recorded (server/oidc/consent.ts) */
  consent: z.object({ grantId: z.string() }),
  /** a refused sign-in: oidc-provider ends the authorization with this OIDC error at the client */
  error: z.enum(['access_denied', 'unmet_authentication_requirements']),
  error_description: z.string(),
  /** why a step-up could not be met (the "no access" page's wording) */
  unmet: z.enum(['sso', 'no_second_factor']),
};

export const interactionResultSchema = z.object(parts).partial();

/** The interaction's result as written (the writers' type). */
export type InteractionResult = z.input<typeof interactionResultSchema>;
export type PendingSignIn = z.output<typeof pendingSignInSchema>;
export type PendingActivity = z.output<typeof pendingActivitySchema>;

/** The interaction's stored result, each part checked on its own; a missing or malformed part is absent. */
export function readInteractionResult(raw: unknown): z.output<typeof interactionResultSchema> {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(parts)) {
    const p = schema.safeParse(r[key]);
    if (p.success) out[key] = p.data;
  }
  return out as z.output<typeof interactionResultSchema>;
}
