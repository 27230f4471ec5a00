/**
 * Passkeys (WebAuthn level 3, issue 33): registering, naming and removing them from the profile, signing in with one
 * without a password (conditional UI or the "Sign in with a passkey" button), a passkey as the second factor after a
 * password, enrolling one during sign-in when an admin setting requires it, the admins' view of a user's passkeys and
 * the second-factor requirement setting. Served by server/routes/auth/passkeys.routes.ts (service:
 * server/services/passkeys.ts); called by the passkey machines (machines/passkeyRegistration.machine.ts,
 * machines/passkeySignIn.machine.ts). docs/ACCOUNT-SECURITY.md "Passkeys".
 */
import { z } from 'zod';
import { dataOf } from './common';
import { defineEndpoint } from './endpoint';
import { interactionUid, loginResultSchema, secondFactorResultSchema } from './auth';

const tag = 'passkeys';

const b64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/);

/**
 * What the browser's `navigator.credentials.create()` / `.get()` gave, as JSON (`PublicKeyCredential.toJSON()`, what
 * @simplewebauthn/browser's startRegistration / startAuthentication answer).
 */
export const credentialSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).nullish(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  response: z.object({
    clientDataJSON: b64url(8000),
    attestationObject: b64url(16000).optional(),
    authenticatorData: b64url(8000).optional(),
    signature: b64url(2000).optional(),
    userHandle: b64url(200).nullish(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4000).optional(),
  }),
});
export type PasskeyCredentialJSON = z.infer<typeof credentialSchema>;

/** The options for `navigator.credentials.create()` / `.get()` as JSON (WebAuthn `PublicKeyCredential*OptionsJSON`). */
export const ceremonyOptionsSchema = z
  .looseObject({ challenge: z.string(), timeout: z.number().optional() })
  .describe('PublicKeyCredentialCreationOptionsJSON (registration) or PublicKeyCredentialRequestOptionsJSON (authentication): hand it to @simplewebauthn/browser unchanged');

export const passkeyNameSchema = z.string().trim().min(1).max(64);

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  kind: z.enum(['hwk', 'swk']).describe('RFC 8176 amr value a sign-in with it carries: hwk for a device-bound security key (cross-platform, not backup-eligible), swk otherwise'),
  backup_eligible: z.boolean().describe('BE flag: a synced (multi-device) passkey'),
  backed_up: z.boolean().describe('BS flag at the last use'),
});
export type PasskeyView = z.infer<typeof passkeySchema>;

const accountErrors = { 401: ['unauthorized', 'invalid_token', 'invalid_dpop_proof', 'account_inactive'], 403: ['api_key_not_allowed'] } as const;

// ---------------------------------------------------------------- the signed-in account's passkeys

export const listPasskeys = defineEndpoint({
  method: 'GET', path: '/api/passkeys', tag, access: 'account', summary: "The signed-in account's passkeys, newest first",
  response: dataOf(z.array(passkeySchema)),
  errors: accountErrors,
});

export const passkeyRegistrationOptions = defineEndpoint({
  method: 'POST', path: '/api/passkeys/registration-options', tag, access: 'account',
  summary: 'Starts registering a passkey: creation options with a single-use challenge bound to this session (5 minutes)',
  response: dataOf(z.object({ options: ceremonyOptionsSchema })),
  errors: { ...accountErrors, 409: ['passkey_limit_reached'], 429: ['too_many_requests'] },
});

export const registerPasskey = defineEndpoint({
  method: 'POST', path: '/api/passkeys', tag, access: 'account',
  summary: "Finishes registering a passkey: the authenticator's answer to the challenge of registration-options, and its name",
  body: z.object({ name: passkeyNameSchema, credential: credentialSchema }),
  status: 201,
  response: dataOf(passkeySchema),
  errors: { ...accountErrors, 400: ['passkey_challenge_invalid'], 409: ['passkey_already_registered', 'passkey_limit_reached'], 422: ['validation_failed', 'passkey_invalid'] },
});

export const renamePasskey = defineEndpoint({
  method: 'PATCH', path: '/api/passkeys/:id', tag, access: 'account', summary: 'Renames one of your passkeys',
  params: z.object({ id: z.string().min(1).max(64) }),
  body: z.object({ name: passkeyNameSchema }),
  response: dataOf(passkeySchema),
  errors: { ...accountErrors, 404: ['passkey_not_found'], 422: ['validation_failed'] },
});

export const deletePasskey = defineEndpoint({
  method: 'DELETE', path: '/api/passkeys/:id', tag, access: 'account', summary: 'Removes one of your passkeys: it cannot sign in any more',
  params: z.object({ id: z.string().min(1).max(64) }),
  response: dataOf(z.object({ id: z.string(), deleted: z.literal(true) })),
  errors: { ...accountErrors, 404: ['passkey_not_found'], 422: ['validation_failed'] },
});

// ---------------------------------------------------------------- signing in (within an OIDC interaction)

const ceremonyErrors = {
  400: ['interaction_expired', 'interaction_invalid', 'passkey_challenge_invalid'],
  401: ['passkey_unknown', 'passkey_invalid'],
  403: ['interaction_foreign_browser', 'account_inactive'],
  422: ['validation_failed'],
  429: ['too_many_requests', 'account_locked'],
} as const;

export const passkeyAuthenticationOptions = defineEndpoint({
  method: 'POST', path: '/api/passkeys/authentication-options', tag, access: 'public',
  summary:
    'Request options for a passkey within a sign-in: `sign_in` (no password; empty allowCredentials, for conditional UI and discoverable credentials) or `second_factor` (after the password: the pending account\'s passkeys). The challenge is single-use, bound to the interaction (and so to its browser), valid 5 minutes',
  body: z.object({ interaction: interactionUid, purpose: z.enum(['sign_in', 'second_factor']) }),
  response: dataOf(z.object({ options: ceremonyOptionsSchema })),
  errors: { 400: ['interaction_expired', 'interaction_invalid', 'two_factor_method_mismatch'], 403: ['interaction_foreign_browser'], 422: ['validation_failed'], 429: ['too_many_requests'] },
});

export const passkeySignIn = defineEndpoint({
  method: 'POST', path: '/api/passkeys/sign-in', tag, access: 'public',
  summary: 'Signs in with a passkey instead of a password (user verification required): answers like the password step, without a second factor (the passkey is multi-factor)',
  body: z.object({ interaction: interactionUid, credential: credentialSchema }),
  response: dataOf(loginResultSchema),
  errors: ceremonyErrors,
});

export const passkeySecondFactor = defineEndpoint({
  method: 'POST', path: '/api/2fa/passkey/verify', tag, access: 'public',
  summary: "Second factor: one of the pending account's passkeys after the password (next to the authenticator code and the recovery codes)",
  body: z.object({ interaction: interactionUid, credential: credentialSchema }),
  response: dataOf(secondFactorResultSchema),
  errors: { ...ceremonyErrors, 400: [...ceremonyErrors[400], 'two_factor_method_mismatch'] },
});

export const passkeyEnrolmentOptions = defineEndpoint({
  method: 'POST', path: '/api/passkeys/enrolment-options', tag, access: 'public',
  summary: 'A sign-in whose account must enrol a passkey first (status `enrolment_required`): creation options for it, bound to the interaction',
  body: z.object({ interaction: interactionUid }),
  response: dataOf(z.object({ options: ceremonyOptionsSchema })),
  errors: { 400: ['interaction_expired', 'interaction_invalid'], 403: ['interaction_foreign_browser'], 422: ['validation_failed'], 429: ['too_many_requests'] },
});

export const passkeyEnrol = defineEndpoint({
  method: 'POST', path: '/api/passkeys/enrol', tag, access: 'public',
  summary: 'Registers the passkey the sign-in required, then finishes the sign-in',
  body: z.object({ interaction: interactionUid, name: passkeyNameSchema, credential: credentialSchema }),
  response: dataOf(secondFactorResultSchema),
  errors: { ...ceremonyErrors, 409: ['passkey_already_registered'], 422: ['validation_failed', 'passkey_invalid'] },
});

// ---------------------------------------------------------------- admins

const adminErrors = { 401: ['unauthorized'], 403: ['forbidden'] } as const;

export const adminListPasskeys = defineEndpoint({
  method: 'GET', path: '/api/admin/users/:id/passkeys', tag, access: 'admin', summary: "A user's passkeys (user information page)",
  params: z.object({ id: z.string().min(1).max(64) }),
  response: dataOf(z.array(passkeySchema)),
  errors: { ...adminErrors, 404: ['user_not_found'], 422: ['validation_failed'] },
});

export const adminDeletePasskey = defineEndpoint({
  method: 'DELETE', path: '/api/admin/users/:id/passkeys/:passkey', tag, access: 'admin', summary: "Removes a user's passkey (audited `user.passkey_removed`)",
  params: z.object({ id: z.string().min(1).max(64), passkey: z.string().min(1).max(64) }),
  response: dataOf(z.object({ id: z.string(), deleted: z.literal(true) })),
  errors: { ...adminErrors, 404: ['user_not_found', 'passkey_not_found'], 422: ['validation_failed'] },
});

export const SECOND_FACTOR_REQUIREMENTS = ['none', 'second_factor', 'passkey'] as const;
export const secondFactorRequirement = z.enum(SECOND_FACTOR_REQUIREMENTS);
export type SecondFactorRequirement = z.infer<typeof secondFactorRequirement>;

export const secondFactorPolicySchema = z.object({
  admins: secondFactorRequirement.describe('every admin account'),
  roles: z
    .array(z.object({ role_id: z.string().min(1).max(64), requirement: secondFactorRequirement }))
    .max(500)
    .describe('users holding the role (through any subscription); the strictest requirement of the roles a user holds applies'),
});
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicySchema>;

export const getSecondFactorPolicy = defineEndpoint({
  method: 'GET', path: '/api/admin/settings/second-factor', tag, access: 'super_admin',
  summary: 'Who must have a second factor (`second_factor`: a passkey, an authenticator app or SMS) or a passkey (`passkey`); they enrol at their next sign-in',
  response: dataOf(secondFactorPolicySchema),
  errors: adminErrors,
});

export const updateSecondFactorPolicy = defineEndpoint({
  method: 'PUT', path: '/api/admin/settings/second-factor', tag, access: 'super_admin',
  summary: 'Sets who must have a second factor or a passkey (audited `settings.second_factor`)',
  body: secondFactorPolicySchema,
  response: dataOf(secondFactorPolicySchema),
  errors: { ...adminErrors, 422: ['validation_failed'] },
});
