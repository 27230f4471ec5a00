/**
 * System endpoints: the languages, the public client configuration, health, and the one-time setup of the first
 * super_admin. Routes: server/routes/system.routes.ts, server/routes/setup.routes.ts; service: server/services/setup.ts.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { dataOf } from './common';
import { emailSchema, personNameSchema } from './domain/formats';
import { newPasswordBody } from './account';

export const languages = defineEndpoint({
  method: 'GET', path: '/api/languages', tag: 'system', access: 'public', summary: 'Languages the interface is offered in',
  response: dataOf(z.object({ languages: z.array(z.string()) })),
  errors: {},
});

export const clientConfigSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  end_session_endpoint: z.string(),
  revocation_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  jwks_uri: z.string(),
  scope: z.string(),
  clients: z.object({ portal: z.string(), admin: z.string() }),
  sso_providers: z.array(z.object({ id: z.string(), name: z.string() })),
  languages: z.array(z.string()),
  default_locale: z.string(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const clientConfig = defineEndpoint({
  method: 'GET', path: '/api/config', tag: 'system', access: 'public', summary: 'Public client configuration for the SPA and other clients',
  response: dataOf(clientConfigSchema),
  errors: {},
});

export const live = defineEndpoint({
  method: 'GET', path: '/api/health/live', tag: 'system', access: 'public',
  summary: 'Liveness: the process is up and serving (no dependency checks; for restart decisions)',
  response: dataOf(z.object({ status: z.literal('ok') })),
  errors: {},
});

/**
 * `status` is `ok` when everything answers, `degraded` when a dependency that only some routes need (Redis: sign-ins,
 * second factors, throttled links) does not: the instance still serves and stays ready; those routes answer 503.
 */
export const readinessSchema = dataOf(
  z.object({
    status: z.enum(['ok', 'degraded']),
    database: z.enum(['sqlite', 'postgres']),
    redis: z.enum(['ok', 'unavailable', 'not_configured']),
    /** the TOTP encryption key decrypts the key check value (otherwise 503 `encryption_key_mismatch`) */
    encryption_key: z.literal('ok'),
  }),
);
export type Readiness = z.infer<typeof readinessSchema>;
const notReady = { 503: ['shutting_down', 'database_unavailable', 'encryption_key_mismatch'] } as const;

export const ready = defineEndpoint({
  method: 'GET', path: '/api/health/ready', tag: 'system', access: 'public',
  summary: 'Readiness, "can this instance serve": the database answers within IAM_HEALTH_TIMEOUT_MS, IAM_ENCRYPTION_KEY decrypts the stored TOTP secrets and the instance is not shutting down (503 otherwise; for load balancers). Redis is reported, not required: without it the routes that need it answer 503 and status is degraded',
  response: readinessSchema,
  errors: notReady,
});

export const health = defineEndpoint({
  method: 'GET', path: '/api/health', tag: 'system', access: 'public', summary: 'Readiness (same as /health/ready)',
  response: readinessSchema,
  errors: notReady,
});

/** The fields of the setup form besides the new password. */
export const setupFields = { token: z.string().min(1).max(200), email: emailSchema, first_name: personNameSchema, last_name: personNameSchema };

export const checkSetupLink = defineEndpoint({
  method: 'GET', path: '/api/setup/:token', tag: 'setup', access: 'public', summary: 'Check a one-time setup link',
  params: z.object({ token: setupFields.token }),
  response: dataOf(z.object({ valid: z.literal(true) })),
  errors: { 403: ['invalid_link'] },
});

/** The body under the shared password policy; the server validates with its stricter password schema (adds `password_common`). */
export const completeSetup = defineEndpoint({
  method: 'POST', path: '/api/setup', tag: 'setup', access: 'public', summary: 'Create the first super_admin with a one-time setup token',
  body: newPasswordBody(setupFields),
  status: 201,
  response: dataOf(z.object({ email: z.string() })),
  errors: { 403: ['invalid_link'], 409: ['setup_done'], 422: ['validation_failed'] },
});
