/**
 * Signing in and the signed-in account: the password step and the second factor of an OIDC interaction
 * (docs/DESIGN.md §6), signing out, single sign-on through an upstream provider, and "who am I".
 * Served by server/routes/auth/*.routes.ts (services: server/services/sign-in.ts, sso.ts, me.ts);
 * called by the login and session machines (machines/) through the injected `Call`.
 */
import { z } from 'zod';
import { ADMIN_ROLES } from './domain/admin-roles';
import { defineEndpoint } from './endpoint';

const tag = 'authentication';

/**
 * The uid of a live OIDC interaction (`?interaction=` of the login page). Every endpoint taking one acts only for the
 * browser that started the authorization: it holds the HttpOnly cookie `iam_interaction_<uid>` (Path=/api/), set when
 * the provider sent it to the login page; any other caller gets 403 `interaction_foreign_browser` and nothing changes
 * (no lockout attempt counted, no code sent, no state written).
 */
export const interactionUid = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('The sign-in interaction (`?interaction=` of the login page). Acts only for the browser holding its `iam_interaction_<uid>` cookie (set by the provider when it sent that browser to the login page); any other caller gets 403 `interaction_foreign_browser` and nothing changes');
export const twoFactorMethod = z.enum(['GOOGLE', 'SMS']);
export type TwoFactorMethod = z.infer<typeof twoFactorMethod>;

const complete = z.object({ status: z.literal('complete'), redirect_to: z.string() });
const passwordExpired = z.object({ status: z.literal('password_expired'), reset_token: z.string() });
/** The second factor a sign-in asks for: the account's authenticator app or SMS, or (no other) a passkey. */
export const signInSecondFactor = z.enum(['GOOGLE', 'SMS', 'PASSKEY']);
const twoFactorRequired = z.object({
  status: z.literal('two_factor_required'),
  method: signInSecondFactor,
  passkey: z.boolean().optional().describe('true: the account has a passkey, offered next to the code (POST /api/2fa/passkey/verify)'),
});
/**
 * An admin setting requires this account to have a passkey (`passkey`) or any second factor (`second_factor`) and it
 * has none yet: it enrols a passkey now (POST /api/passkeys/enrolment-options, then /api/passkeys/enrol), which
 * finishes the sign-in.
 */
const enrolmentRequired = z.object({ status: z.literal('enrolment_required'), requirement: z.enum(['second_factor', 'passkey']) });

/** The answer to the password step: signed in (follow `redirect_to`), the second factor next, or the password must be changed first. */
export const loginResultSchema = z.union([complete, twoFactorRequired, passwordExpired, enrolmentRequired]);
export type LoginResult = z.infer<typeof loginResultSchema>;
/** After the second factor: signed in, or (password too old) the token to set a new one first, or a passkey to enrol. */
export const secondFactorResultSchema = z.union([complete, passwordExpired, enrolmentRequired]);
export type SecondFactorResult = z.infer<typeof secondFactorResultSchema>;

const loginBody = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(200), interaction: interactionUid });
const otpBody = z.object({ one_time_password: z.string().max(20).optional(), interaction: interactionUid });

/**
 * 401 `sso_account_use_provider`: the password was not accepted and the e-mail's domain belongs to an upstream provider
 * (SSO_PROVIDERS `domains`); the message names the provider. It depends on the domain only, never on whether an
 * account exists (no user enumeration): unknown e-mails, SSO accounts and wrong passwords there get the same answer.
 */
const loginErrors = {
  400: ['interaction_expired', 'interaction_invalid'],
  401: ['invalid_credentials', 'sso_account_use_provider'],
  403: ['interaction_foreign_browser'],
  422: ['validation_failed', 'phone_required'],
  429: ['too_many_requests', 'account_locked'],
  502: ['sms_send_failed'],
  // the sign-in admission gate: too many sign-ins at once, refused before any work (Retry-After; docs/OPERATIONS.md)
  503: ['service_unavailable'],
} as const;

export const login = defineEndpoint({
  method: 'POST', path: '/api/login', tag, access: 'public', summary: 'Sign in a user within an OIDC interaction',
  body: loginBody,
  response: z.object({ data: loginResultSchema }),
  errors: loginErrors,
});

export const adminLogin = defineEndpoint({
  method: 'POST', path: '/api/admin/login', tag, access: 'public', summary: 'Sign in an admin within an OIDC interaction',
  body: loginBody,
  response: z.object({ data: loginResultSchema }),
  errors: loginErrors,
});

/** A wrong code counts against the account's one-time-password lock and the address (429 once locked). */
const secondFactorErrors = <const C extends readonly ('otp_invalid' | 'recovery_code_invalid')[]>(invalid: C) =>
  ({
    400: ['interaction_expired', 'interaction_invalid', 'two_factor_method_mismatch'],
    403: ['account_inactive', 'interaction_foreign_browser'],
    422: ['validation_failed', 'otp_required', ...invalid],
    429: ['too_many_requests', 'account_locked'],
  }) as const;

export const validateOtp = defineEndpoint({
  method: 'POST', path: '/api/2fa/google/validate-otp', tag, access: 'public', summary: 'Second factor: authenticator app code during sign-in',
  body: otpBody,
  response: z.object({ data: secondFactorResultSchema }),
  errors: secondFactorErrors(['otp_invalid']),
});

/** Admins: the authenticator code or, with SMS as their method, the SMS code. */
export const adminValidateOtp = defineEndpoint({
  method: 'POST', path: '/api/admin/2fa/validate-otp', tag, access: 'public', summary: 'Second factor: authenticator app code during sign-in',
  body: otpBody,
  response: z.object({ data: secondFactorResultSchema }),
  errors: secondFactorErrors(['otp_invalid']),
});

export const verifySms = defineEndpoint({
  method: 'POST', path: '/api/2fa/sms/verify', tag, access: 'public', summary: 'Second factor: SMS code during sign-in',
  body: otpBody,
  response: z.object({ data: secondFactorResultSchema }),
  errors: secondFactorErrors(['otp_invalid']),
});

export const validateRecoveryCode = defineEndpoint({
  method: 'POST', path: '/api/2fa/validate-recovery-code', tag, access: 'public', summary: 'Second factor: a recovery code instead of the one-time password',
  body: z.object({ recovery_code: z.string().max(64).optional(), interaction: interactionUid }),
  response: z.object({ data: secondFactorResultSchema }),
  errors: secondFactorErrors(['recovery_code_invalid']),
});

/**
 * With `interaction`: the sign-in code of that interaction again. Without: the signed-in account's enrollment code
 * (or the code that confirms disabling SMS 2FA), so it takes a bearer then.
 */
export const resendSms = defineEndpoint({
  method: 'POST', path: '/api/2fa/sms/resend', tag, access: 'public',
  summary: 'Sends the SMS code again: the sign-in code with `interaction`, else (signed in) the enrollment code',
  body: z.object({ interaction: interactionUid.optional() }).nullish(),
  response: z.object({ data: z.object({ status: z.literal('sent') }) }),
  errors: {
    400: ['interaction_expired', 'two_factor_method_mismatch'],
    401: ['unauthorized', 'invalid_token', 'invalid_dpop_proof', 'account_inactive'],
    403: ['api_key_not_allowed', 'interaction_foreign_browser'],
    422: ['validation_failed', 'phone_required'],
    429: ['too_many_requests'],
    502: ['sms_send_failed'],
  },
});

/**
 * The login page's first call with `?interaction=`: does this browser hold that interaction? 200 when it does; 403
 * `interaction_foreign_browser` when the link was opened in another browser (the page then starts an authorization of
 * its own, or, for a service app's, tells the person to start again from the app); 400 when it is gone. Reads only.
 */
export const interactionStatus = defineEndpoint({
  method: 'GET', path: '/api/interactions/:interaction', tag, access: 'public', summary: "Whether the caller's browser holds this sign-in interaction",
  params: z.object({ interaction: interactionUid }),
  response: z.object({ data: z.object({ status: z.literal('active') }) }),
  errors: { 400: ['interaction_expired'], 403: ['interaction_foreign_browser'] },
});

export const logout = defineEndpoint({
  method: 'POST', path: '/api/logout', tag, access: 'account', summary: 'Ends the current session server-side (then go to the end-session endpoint)',
  response: z.object({
    data: z.object({
      status: z.literal('logged_out'),
      upstream_logout_url: z
        .string()
        .optional()
        .describe("an SSO session: the upstream provider's sign-out page to send the browser to (instead of the end-session endpoint); it returns to the login page"),
    }),
  }),
  errors: { 401: ['unauthorized', 'invalid_token', 'invalid_dpop_proof', 'account_inactive'] },
});

// ---------------------------------------------------------------- the signed-in account

/** The signed-in account as "who am I" shows it (docs/SPEC.md §3 "Authenticated user response"). */
export const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  locale: z.string(),
  type: z.enum(['user', 'admin']),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  auth_type: z.enum(['CREDENTIALS', 'SSO']),
  provider: z.string().nullable(),
  technical: z.boolean(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const serviceAppLinkSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  url: z.string(),
  path: z.string(),
  launch_url: z
    .string()
    .describe("where the home page opens the app: its initiate_login_uri with `iss` (OpenID Connect Core §4), else its url; never the redirect URI"),
});
export type ServiceAppLink = z.infer<typeof serviceAppLinkSchema>;

/** A subscription of the user with the roles held in it and the service apps those roles open. */
export const userSubscriptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  service_apps: z.array(serviceAppLinkSchema),
});
export type UserSubscription = z.infer<typeof userSubscriptionSchema>;

export const twoFactorStatusSchema = z.object({ enabled: z.boolean(), method: twoFactorMethod.nullable() });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const currentUserSchema = z.object({
  auth_user: authUserSchema.extend({ subscriptions: z.array(userSubscriptionSchema).optional() }),
  '2fa': twoFactorStatusSchema,
  sso_login: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const currentAdminSchema = z.object({
  auth_user: authUserSchema.extend({ role: z.enum(ADMIN_ROLES).nullable() }),
  '2fa': twoFactorStatusSchema,
});
export type CurrentAdmin = z.infer<typeof currentAdminSchema>;

/** The one route a technical user's API key is for: who am I, with which subscriptions and roles. */
export const currentUser = defineEndpoint({
  method: 'GET', path: '/api/user', tag, access: 'user', summary: 'The signed-in user, optionally with subscriptions, roles and service apps',
  /** `with=subscriptions` adds the subscriptions with their roles and service apps. */
  query: z.object({ with: z.string().max(100).optional() }),
  response: z.object({ data: currentUserSchema }),
  errors: { 401: ['unauthorized', 'invalid_token', 'invalid_dpop_proof', 'account_inactive'], 403: ['forbidden'] },
});

export const currentAdmin = defineEndpoint({
  method: 'GET', path: '/api/admin', tag, access: 'admin', summary: 'The signed-in admin',
  response: z.object({ data: currentAdminSchema }),
  errors: { 401: ['unauthorized', 'invalid_token', 'invalid_dpop_proof', 'account_inactive'], 403: ['forbidden', 'api_key_not_allowed'] },
});

// ---------------------------------------------------------------- upstream single sign-on (browser redirects)

const providerParams = z.object({ provider: z.string().max(64) });

/** Not called with `call()`: the browser goes there (see upstreamStartUrl in machines/ssoCallback.machine.ts). */
export const ssoStart = defineEndpoint({
  method: 'GET', path: '/api/sso/:provider/start', tag, access: 'public', summary: 'Starts sign-in through an upstream identity provider (browser redirect)',
  params: providerParams,
  query: z.object({
    interaction: interactionUid,
    ui_locales: z.string().max(100).optional().describe("The person's language (BCP 47 tags), passed to the upstream provider as `ui_locales`"),
  }),
  status: 302,
  response: z.null().describe('Redirect to the upstream provider (sets the `iam_sso` cookie binding the sign-in to this browser)'),
  errors: { 400: ['interaction_expired'], 403: ['interaction_foreign_browser'], 404: ['sso_provider_unknown'], 502: ['sso_failed'] },
});

/**
 * The upstream provider sends the browser back here. Failures redirect to the login page instead of answering an
 * error: `?interaction=…&error=sso_failed|sso_account_not_found|sso_email_missing|sso_email_unverified` (the last two: the
 * upstream sent no e-mail address, or did not say `email_verified: true`; also in the admin error log), or `?error=interaction_expired` when the state is
 * unknown or already used (a reloaded callback URL) or the browser is not the one that started the sign-in, or
 * `?error=interaction_foreign_browser` when it lacks the interaction's binding cookie (the state stays unused).
 */
export const ssoCallback = defineEndpoint({
  method: 'GET', path: '/api/sso/:provider/callback', tag, access: 'public', summary: 'Upstream provider callback: finishes the sign-in and redirects to the provider resume URL',
  params: providerParams,
  query: z.object({ state: z.string().max(200).optional(), code: z.string().max(2000).optional(), error: z.string().max(200).optional() }).passthrough(),
  status: 302,
  response: z.null().describe('Redirect'),
  errors: { 404: ['sso_provider_unknown'] },
});

/**
 * The upstream provider sends the browser back here after signing the person out there, when an app's RP-initiated
 * logout of an SSO session went on to the upstream (server/oidc/upstream-logout.ts). Register
 * `APP_URL/api/sso/<provider>/signed-out` at the upstream as a post-logout redirect URI. Always a redirect: to the
 * app's post-logout redirect URI (with the app's `state`) or our signed-out page, kept server-side for the browser
 * holding the `iam_sso_logout` cookie and used once; anything else (no or another cookie, used, expired, another
 * provider or `state`) goes to our signed-out page.
 */
export const ssoSignedOut = defineEndpoint({
  method: 'GET', path: '/api/sso/:provider/signed-out', tag, access: 'public', summary: 'Upstream provider sign-out return: continues to where the app\'s sign-out ends (browser redirect)',
  params: providerParams,
  query: z.object({ state: z.string().max(200).optional() }).passthrough(),
  status: 302,
  response: z.null().describe("Redirect to the app's post-logout redirect URI or the signed-out page (clears the `iam_sso_logout` cookie)"),
  errors: {},
});

/** Error codes the SSO callback puts in the login page's query (`?error=…`). */
export const SSO_CALLBACK_ERRORS = ['sso_failed', 'sso_account_not_found', 'sso_email_missing', 'sso_email_unverified', 'interaction_expired', 'interaction_foreign_browser'] as const;
export type SsoCallbackError = (typeof SSO_CALLBACK_ERRORS)[number];
