/** Service apps: the OIDC clients (client_id = name) people sign in to; super_admin only. */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { dataOf, deletedAnswer, idParams, listOf, pageQuery } from '../common';
import { backchannelLogoutUriSchema, initiateLoginUriSchema, servicePathSchema, serviceUrlSchema } from '../domain/formats';
import { POST_LOGOUT_REDIRECT_URIS_MAX, REDIRECT_URI_MAX_LENGTH, REDIRECT_URIS_MAX } from '../domain/redirect-uris';

/** Token endpoint authentication methods a confidential service app may be registered for. */
export const SECRET_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type SecretAuthMethod = (typeof SECRET_AUTH_METHODS)[number];
/** How an app authenticates at the token endpoint: `none` for public apps, a secret method for confidential ones. */
export type TokenEndpointAuthMethod = 'none' | SecretAuthMethod;

export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

const tokenEndpointAuthMethod = z.enum(['none', ...SECRET_AUTH_METHODS]);
const ref = z.object({ id: z.string(), name: z.string() });

/**
 * What the errors of a logout token delivery are (server/oidc/backchannel-logout.ts): `http_<status>` (the app
 * answered another status than 200/204; a redirect is never followed), `timeout`, `connection_refused`, `network`.
 */
export const logoutDeliverySchema = z
  .object({
    pending: z.number().int().describe('logout tokens waiting to be delivered (first try or retry)'),
    failed: z.number().int().describe('logout tokens given up after every retry (kept 30 days)'),
    last_delivered_at: z.string().nullable().describe('when the app last accepted a logout token'),
    last_failure: z
      .object({ at: z.string(), error: z.string().describe('http_<status>, timeout, connection_refused or network') })
      .nullable()
      .describe('the last failed attempt (a retry may have succeeded since)'),
  })
  .describe('back-channel logout deliveries to this app');
export type LogoutDelivery = z.infer<typeof logoutDeliverySchema>;

export const serviceAppSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  redirect_uris: z.array(z.string()).describe('the registered redirect URIs (exact match), 1 to 10'),
  post_logout_redirect_uris: z.array(z.string()).describe('the registered post-logout redirect URIs (exact match), 0 to 10'),
  url: z.string().describe('older clients: the first redirect URI is url + path'),
  path: z.string().describe('older clients: the first redirect URI is url + path'),
  client_type: z.enum(CLIENT_TYPES),
  pkce_required: z.boolean().describe('PKCE required (always true for public apps)'),
  client_credentials: z.boolean().describe('the app may use the client_credentials grant (confidential apps)'),
  token_endpoint_auth_method: tokenEndpointAuthMethod.describe('how the app authenticates at the token endpoint (public apps: none)'),
  initiate_login_uri: z.string().nullable().describe("OpenID Connect Core §4: where the portal's home page sends a person who opens the app, with `iss` (null: the app's url)"),
  backchannel_logout_uri: z.string().nullable().describe('OpenID Connect Back-Channel Logout: where the app receives logout tokens (null: not told)'),
  backchannel_logout_session_required: z.boolean().describe('the app needs `sid` in the logout token (every logout token carries it when the session is known)'),
  logout_delivery: logoutDeliverySchema,
  roles: z.array(ref),
  oidc: z
    .object({
      issuer: z.string(),
      discovery_url: z.string().describe('OpenID Connect discovery document of the provider'),
      redirect_uri: z.string().describe('the first registered redirect URI (the one the set-ups use)'),
      redirect_uris: z.array(z.string()),
      post_logout_redirect_uris: z.array(z.string()),
      token_endpoint_auth_method: tokenEndpointAuthMethod,
      grant_types: z.array(z.string()),
      pkce_required: z.boolean(),
    })
    .describe("what to configure in the app's OIDC software"),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A service app as the admin API shows it; `client_secret` only in the answer of a create or update. */
export type ServiceApp = z.infer<typeof serviceAppSchema> & { client_secret?: string | null };

const withSecret = serviceAppSchema.extend({ client_secret: z.string().nullable().describe('confidential clients: shown once, at creation or rotation') });
export type ServiceAppWithSecret = z.infer<typeof withSecret>;

const clientId = z.string().trim().min(2).max(64).regex(/^[a-z0-9][a-z0-9-]*$/).describe('OIDC client_id: lowercase letters, digits, "-"; not portal/admin-console');
const displayName = z.string().trim().min(1).max(100);
const roleIds = z.array(z.string().min(1).max(64)).max(500);
const clientType = z.enum(CLIENT_TYPES);
const pkceRequired = z.boolean().describe('confidential apps only: false lets the app omit PKCE (software that cannot send it); public apps always need PKCE');
const authMethod = z.enum(SECRET_AUTH_METHODS).describe('confidential apps only: client_secret_basic (default, HTTP Basic) or client_secret_post (secret in the request body)');
const clientCredentials = z.boolean().describe('confidential apps only: allow the client_credentials grant (machine to machine)');
const backchannelLogoutUri = backchannelLogoutUriSchema
  .nullable()
  .describe('OpenID Connect Back-Channel Logout 1.0: absolute https URL (http only on localhost, 127.0.0.0/8, ::1), no fragment, at most 2048 characters; null: none');
const initiateLoginUri = initiateLoginUriSchema
  .nullable()
  .describe("OpenID Connect Core 1.0 §4 (third-party initiated login): the app's own sign-in start, e.g. https://app.example.com/login; the portal's home page opens it with `iss` = this provider's issuer. Absolute https URL (http only on localhost, 127.0.0.0/8, ::1), no fragment, at most 2048 characters; null: the home page opens the app's url");
const backchannelLogoutSessionRequired = z.boolean().describe('the app needs `sid` in logout tokens (registration metadata; default false)');
/**
 * A list of exact URIs; each entry's own rules (absolute https URL, http only on loopback hosts, no fragment, no `*`,
 * no duplicates: contract/domain/redirect-uris.ts) are checked by the service, which knows the app's registered URIs.
 */
const uriEntry = z.string().trim().max(REDIRECT_URI_MAX_LENGTH);
const redirectUris = z
  .array(uriEntry)
  .max(REDIRECT_URIS_MAX)
  .superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue({ code: 'custom', params: { code: 'required' }, message: 'at least one redirect URI' });
  })
  .describe('exact redirect URIs, 1 to 10: absolute https URLs (http only on localhost, 127.0.0.0/8, [::1]), no fragment, no user info, no wildcard');
const postLogoutRedirectUris = z.array(uriEntry).max(POST_LOGOUT_REDIRECT_URIS_MAX).describe('exact post-logout redirect URIs, 0 to 10, same rules as redirect_uris');
/** The OIDC settings a create and an update both take, each optional: the confidential-only switches and the login and logout URIs. */
const oidcSettings = {
  pkce_required: pkceRequired.optional(),
  client_credentials: clientCredentials.optional(),
  token_endpoint_auth_method: authMethod.optional(),
  initiate_login_uri: initiateLoginUri.optional(),
  backchannel_logout_uri: backchannelLogoutUri.optional(),
  backchannel_logout_session_required: backchannelLogoutSessionRequired.optional(),
};

const tag = 'admin: service apps';

export const listServiceApps = defineEndpoint({
  method: 'GET', path: '/api/admin/service-apps', tag, access: 'super_admin', summary: 'List service apps',
  query: z.object({ ...pageQuery, size: z.coerce.number().int().min(1).max(100).default(100), search: z.string().trim().max(64).optional() }),
  response: listOf(serviceAppSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});

export const getServiceApp = defineEndpoint({
  method: 'GET', path: '/api/admin/service-apps/:id', tag, access: 'super_admin', summary: 'One service app',
  params: idParams,
  response: dataOf(serviceAppSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['service_app_not_found'] },
});

/**
 * 422 `validation_failed` also carries field codes: `name: name_reserved` (portal, admin-console), `role_ids.N: role_unknown`,
 * `pkce_required | client_credentials | token_endpoint_auth_method: confidential_only` (asked for on a public app),
 * `backchannel_logout_uri | initiate_login_uri: invalid | https_required`,
 * `redirect_uris.N | post_logout_redirect_uris.N: invalid | too_long | https_required | uri_fragment | uri_wildcard |
 * uri_duplicate`, `redirect_uris: required` (neither redirect_uris nor url + path given), `url: uri_conflict` (url + path
 * differ from redirect_uris[0]).
 *
 * Older clients send `url` + `path` instead of `redirect_uris`: they are the first redirect URI (url without its trailing
 * slashes, then path), and an app made that way may come back after sign-out to the bare url (with and without a
 * slash) and to its redirect URI, as before, unless `post_logout_redirect_uris` says otherwise.
 */
export const createServiceApp = defineEndpoint({
  method: 'POST', path: '/api/admin/service-apps', tag, access: 'super_admin', summary: 'Create a service app (confidential: client_secret returned once)',
  body: z.object({
    name: clientId,
    display_name: displayName,
    redirect_uris: redirectUris.optional(),
    post_logout_redirect_uris: postLogoutRedirectUris.optional(),
    url: serviceUrlSchema.optional(),
    path: servicePathSchema.optional(),
    role_ids: roleIds.default([]),
    client_type: clientType.optional(),
    ...oidcSettings,
  }),
  status: 201,
  response: dataOf(withSecret),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 409: ['name_taken'], 422: ['validation_failed'] },
});

export const updateServiceApp = defineEndpoint({
  method: 'PATCH', path: '/api/admin/service-apps/:id', tag, access: 'super_admin',
  summary: 'Update a service app (redirect_uris, post_logout_redirect_uris replace the lists; url and/or path replace the first redirect URI; regenerate_secret rotates a confidential secret, returned once)',
  params: idParams,
  body: z.object({
    name: clientId.optional(),
    display_name: displayName.optional(),
    redirect_uris: redirectUris.optional(),
    post_logout_redirect_uris: postLogoutRedirectUris.optional(),
    url: serviceUrlSchema.optional(),
    path: servicePathSchema.optional(),
    role_ids: roleIds.optional(),
    client_type: clientType.optional(),
    regenerate_secret: z.boolean().optional(),
    ...oidcSettings,
  }),
  response: dataOf(withSecret),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['service_app_not_found'], 409: ['name_taken'], 422: ['validation_failed'] },
});

export const deleteServiceApp = defineEndpoint({
  method: 'DELETE', path: '/api/admin/service-apps/:id', tag, access: 'super_admin', summary: 'Delete a service app',
  params: idParams,
  response: deletedAnswer,
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['service_app_not_found'] },
});
