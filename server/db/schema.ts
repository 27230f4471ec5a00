import type { Generated, Insertable, Selectable } from 'kysely';
import type { AdminRole } from '../../contract/domain/admin-roles';

/**
 * Database types. Portable across SQLite and PostgreSQL: ids are UUID strings, timestamps are
 * ISO-8601 UTC strings (text, so ordering is lexicographic on both), booleans are 0/1 integers,
 * JSON is text.
 */
export type AccountType = 'user' | 'admin';
export type { AdminRole };
export type AccountStatus = 'ACTIVE' | 'INACTIVE';
export type AuthType = 'CREDENTIALS' | 'SSO';
export type TwoFactorMethod = 'GOOGLE' | 'SMS';

export interface AccountsTable {
  id: string;
  type: AccountType;
  email: string;
  /** lower-cased e-mail, unique per type */
  email_normalized: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  locale: string;
  status: AccountStatus;
  auth_type: AuthType;
  provider: string | null;
  /** upstream subject for SSO accounts */
  provider_subject: string | null;
  technical: number;
  admin_role: AdminRole | null;
  avatar: string | null;
  password_hash: string | null;
  password_changed_at: string | null;
  email_verified_at: string | null;
  created_by: string | null;
  two_factor_method: TwoFactorMethod | null;
  two_factor_secret: string | null;
  two_factor_confirmed_at: string | null;
  /** last accepted TOTP time step, to refuse replays */
  two_factor_last_step: number | null;
  api_key_hash: string | null;
  api_key_prefix: string | null;
  api_key_created_at: string | null;
  /** lower-cased "email first last", for search */
  search_text: string;
  created_at: string;
  updated_at: string;
}

export interface RolesTable {
  id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionsTable {
  id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionRolesTable {
  subscription_id: string;
  role_id: string;
}

/** Per-user roles held through a subscription. */
export interface RoleSubscriptionsTable {
  account_id: string;
  subscription_id: string;
  role_id: string;
  created_at: string;
}

/** Token endpoint authentication methods a confidential service app may be registered for (contract/admin/service-apps.ts). */
export { SECRET_AUTH_METHODS, type SecretAuthMethod } from '../../contract/admin/service-apps';
import type { SecretAuthMethod } from '../../contract/admin/service-apps';

export interface ServiceAppsTable {
  id: string;
  /** also the OIDC client_id */
  name: string;
  display_name: string;
  /**
   * The first redirect URI as older releases read it (url + path, contract/domain/formats.ts serviceRedirectUri). Kept in
   * step with `redirect_uris[0]` until a contract migration drops them (issue 31.2, migration 0016).
   */
  url: string;
  path: string;
  /** JSON array of exact redirect URIs (1–10); null: a row an older release wrote, the one URI is url + path */
  redirect_uris: string | null;
  /** JSON array of exact post-logout redirect URIs (0–10); null: a row an older release wrote (legacyPostLogoutRedirectUris) */
  post_logout_redirect_uris: string | null;
  client_type: 'public' | 'confidential';
  /** confidential clients: the secret, encrypted or hashed by the provider integration */
  client_secret: string | null;
  /** 1: PKCE required (always enforced for public apps); 0: a confidential app may omit it */
  pkce_required: Generated<number>;
  /** 1: a confidential app may use the client_credentials grant */
  client_credentials: Generated<number>;
  /** how a confidential app authenticates at the token endpoint (public apps: always `none`) */
  token_endpoint_auth_method: Generated<SecretAuthMethod>;
  /** OpenID Connect Core §4 (migration 0021): where the home page sends a person to start the app's own sign-in; null = the app's url */
  initiate_login_uri: string | null;
  /** OpenID Connect Back-Channel Logout (migration 0015): where the app receives logout tokens; null = not told */
  backchannel_logout_uri: string | null;
  /** 1: the app registered that it needs `sid` in the logout token */
  backchannel_logout_session_required: Generated<number>;
  /** the last logout token the app accepted (ISO time) */
  backchannel_delivered_at: string | null;
  /** the last failed delivery attempt (ISO time) and its error (server/oidc/backchannel-logout.ts DeliveryError) */
  backchannel_failed_at: string | null;
  backchannel_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ServiceAppRolesTable {
  service_app_id: string;
  role_id: string;
}

export interface AuthActivitiesTable {
  id: string;
  account_id: string;
  client_id: string | null;
  /** oidc session or grant id, to close the activity on logout */
  session_ref: string | null;
  logged_in_at: string;
  logged_out_at: string | null;
  ip_address: string | null;
  origin: string | null;
  user_agent: string | null;
}

export interface ErrorLogsTable {
  id: string;
  error_code: string;
  status: number;
  method: string;
  url: string;
  message: string;
  user_email: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  ip_address: string | null;
  created_at: string;
}

/** JWT access tokens revoked before they expire (RFC 7009; migration 0017, server/oidc/revocation.ts). */
export interface RevokedAccessTokensTable {
  jti: string;
  client_id: string;
  /** epoch seconds: the token's exp (the row is deleted after it) */
  expires_at: number;
  revoked_at: string;
}

/** What the product knows of one provider session, by its uid (migration 0019, server/services/sessions.ts). */
export interface AccountSessionsTable {
  uid: string;
  account_id: string;
  user_agent: string | null;
  ip_address: string | null;
  /** ISO 3166-1 alpha-2 country code from IAM_PLACE_HEADER, else null */
  place: string | null;
  signed_in_at: string;
  last_used_at: string;
  /** epoch seconds: the session's absolute end (the row is deleted after it) */
  expires_at: number;
}

/** A browser an account signed in from (migration 0019): the new-device mail's memory (server/services/sessions.ts). */
export interface AccountDevicesTable {
  account_id: string;
  /** SHA-256 (hex) of the id in the browser's signed device cookie */
  device_hash: string;
  /** the User-Agent family: browser and system, e.g. "Firefox/Windows" */
  family: string;
  first_seen_at: string;
  last_seen_at: string;
}

/** DPoP proofs already used at a resource endpoint, without Redis (RFC 9449; migration 0017, server/oidc/dpop.ts). */
export interface DpopProofsTable {
  /** sha256 of the proof key's thumbprint and the proof's jti */
  id: string;
  /** epoch seconds: until then the proof could be accepted */
  expires_at: number;
}

/** oidc-provider artefacts (sessions, grants, codes, tokens, interactions...). */
export interface OidcModelsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  /** payload.accountId (sessions, grants, codes, tokens), to end every session of an account */
  account_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** epoch seconds */
  expires_at: number | null;
  consumed_at: number | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  /** next (published, not signing yet) → active (the one signing key) → previous (published, verifies) → retired */
  status: 'next' | 'active' | 'previous' | 'retired';
  created_at: string;
  /** next: when it becomes active; active/previous: when it did */
  activates_at: string | null;
  /** when it stopped signing (became previous) */
  rotated_at: string | null;
  retired_at: string | null;
}

/** Single-use tokens: invitation, password reset, setup link, expired-password reset. */
export interface OneTimeTokensTable {
  id: string;
  account_id: string | null;
  purpose: 'invitation' | 'reset' | 'setup' | 'expired_password';
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface RecoveryCodesTable {
  id: string;
  account_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** SMS one-time codes, bound to a purpose (enable, sign-in interaction). */
export interface OtpChallengesTable {
  id: string;
  account_id: string;
  purpose: 'sms_enable' | 'sms_login' | 'sms_disable';
  interaction_uid: string | null;
  code_hash: string;
  attempts: number;
  expires_at: string;
  sent_at: string;
  consumed_at: string | null;
}

/** Throttling and lockout counters (used when Redis is not configured). */
export interface RateCountersTable {
  key: string;
  count: number;
  /** epoch ms when the window resets */
  reset_at: number;
  /** epoch ms until which the key is locked, 0 when not locked */
  locked_until: number;
}

/** CSV imports run as jobs (migrations 0003_admin_search, 0006_import_job_lease): progress and report, readable by every instance. */
export interface ImportJobsTable {
  id: string;
  actor_id: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  dry_run: number;
  send_invitations: number;
  total: number;
  processed: number;
  created: number;
  skipped_count: number;
  failed_count: number;
  report: string | null;
  error_code: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** instance running the job (INSTANCE_ID, server/services/jobs.ts); null when not running */
  owner: string | null;
  heartbeat_at: string | null;
  /** epoch ms; past = the owner is gone */
  lease_until: number;
}

/** Maintained count of accounts per type (migration 0003_admin_search), for unfiltered list totals in O(1). */
export interface AccountCountersTable {
  type: string;
  n: number;
}

/**
 * A logout token to deliver (migration 0015, server/oidc/backchannel-logout.ts): pending until the app answers 200/204
 * (then deleted) or the retries are used up (`failed`, kept for the admin's view until the retention ends).
 */
export interface LogoutDeliveriesTable {
  id: string;
  service_app_id: string;
  /** the token's `sub` (the account may be deleted meanwhile: no foreign key) */
  account_id: string;
  /** the token's `sid`: the session id the app's ID token carried; null when no session is known */
  sid: string | null;
  /** what ended the session (LogoutReason) */
  reason: string;
  status: 'pending' | 'failed';
  attempts: Generated<number>;
  /** epoch ms: due from then on */
  next_attempt_at: number;
  /** the instance (and claim) sending it now; null when nobody is */
  lease_owner: string | null;
  /** epoch ms; past = free to take */
  lease_until: Generated<number>;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A registered passkey (WebAuthn credential) of an account (migration 0018, server/services/passkeys.ts). */
export interface PasskeysTable {
  id: string;
  account_id: string;
  /** the credential id, base64url */
  credential_id: string;
  /** the COSE public key, base64url */
  public_key: string;
  /** the last signature counter seen; a response that does not raise it (when either is non-zero) is refused */
  counter: number;
  /** JSON array of the transports the browser reported at registration, or null */
  transports: string | null;
  /** 'platform' | 'cross-platform' as the browser reported it at registration, or null */
  attachment: string | null;
  /** BE: the credential may be synced (a multi-device passkey) */
  backup_eligible: number;
  /** BS: the credential is backed up now (updated at every use) */
  backed_up: number;
  aaguid: string | null;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge handed out and not yet answered (migration 0018): single use, bound, short-lived. */
export interface WebauthnChallengesTable {
  challenge: string;
  purpose: 'register' | 'sign_in' | 'second_factor' | 'enrol';
  account_id: string | null;
  interaction_uid: string | null;
  grant_id: string | null;
  /** epoch ms */
  expires_at: number;
}

/** An avatar image (migration 0014): the re-encoded PNG, by the name `accounts.avatar` holds. */
export interface AvatarImagesTable {
  name: string;
  content: Buffer;
  created_at: string;
}

export interface Database {
  accounts: AccountsTable;
  avatar_images: AvatarImagesTable;
  roles: RolesTable;
  subscriptions: SubscriptionsTable;
  subscription_roles: SubscriptionRolesTable;
  role_subscriptions: RoleSubscriptionsTable;
  service_apps: ServiceAppsTable;
  service_app_roles: ServiceAppRolesTable;
  logout_deliveries: LogoutDeliveriesTable;
  auth_activities: AuthActivitiesTable;
  error_logs: ErrorLogsTable;
  audit_log: AuditLogTable;
  oidc_models: OidcModelsTable;
  revoked_access_tokens: RevokedAccessTokensTable;
  dpop_proofs: DpopProofsTable;
  account_sessions: AccountSessionsTable;
  account_devices: AccountDevicesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  signing_keys: SigningKeysTable;
  one_time_tokens: OneTimeTokensTable;
  recovery_codes: RecoveryCodesTable;
  otp_challenges: OtpChallengesTable;
  rate_counters: RateCountersTable;
  app_settings: { key: string; value: string; updated_at: string };
  import_jobs: ImportJobsTable;
  account_counters: AccountCountersTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type Role = Selectable<RolesTable>;
export type Passkey = Selectable<PasskeysTable>;
export type ServiceApp = Selectable<ServiceAppsTable>;
// Generated is re-exported for migrations that add auto columns later
export type { Generated };
