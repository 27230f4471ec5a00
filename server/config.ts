import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration from the environment (docs/DESIGN.md §4). Validated once at start; a bad value
 * stops the process with one line naming the variable.
 */
const ssoProviderSchema = z.object({
  id: z.string().regex(/^[a-z0-9_-]+$/i),
  name: z.string().min(1),
  issuer: z.string().url(),
  client_id: z.string().min(1),
  client_secret: z.string().optional(),
  scope: z.string().optional(),
  /**
   * E-mail domains whose people sign in through this provider (`["corp.example"]`): a failed password sign-in with
   * such an address answers `sso_account_use_provider` naming the provider, whether or not the account exists.
   */
  domains: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+\.[a-z0-9-]+$/)).optional(),
  /**
   * How this server authenticates at the upstream token endpoint with `client_secret`: `client_secret_post` (the
   * default, secret in the form body) or `client_secret_basic` (HTTP Basic). Use what the upstream registered.
   */
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post']).default('client_secret_post'),
  /**
   * Whether the upstream must say `email_verified: true` (default). Set false only for a provider that vouches for
   * every address it sends but does not send the claim (e.g. LemonLDAP::NG without an `email_verified` attribute):
   * the account is then matched on the e-mail alone, so only do it for a provider whose addresses you trust.
   */
  require_email_verified: z.boolean().default(true),
  /**
   * Whether signing out here also signs the person out at this provider (default true, when it advertises an
   * end_session_endpoint), so the next SSO sign-in asks for the upstream password again: the browser continues to it
   * with `id_token_hint`. After a sign-out in the portal or the admin console it comes back to the login page; after
   * an app's RP-initiated logout to `APP_URL/api/sso/<id>/signed-out`, which goes on to where the app's sign-out
   * ends. Register `APP_URL/login`, `APP_URL/admin/login` and `APP_URL/api/sso/<id>/signed-out` there as post-logout
   * redirect URIs.
   */
  end_session: z.boolean().default(true),
});
export type SsoProviderConfig = z.infer<typeof ssoProviderSchema>;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface AppConfig {
  port: number;
  host: string;
  appUrl: string;
  issuer: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every key this app writes to Redis (IAM_REDIS_PREFIX, default `iam:`), so several deployments or test runs can share one Redis. */
  redisKeyPrefix?: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  smsProvider: 'log' | 'twilio';
  twilio: { accountSid?: string; authToken?: string; from?: string; baseUrl: string };
  ssoProviders: SsoProviderConfig[];
  logLevel: (typeof logLevels)[number];
  /** Sign-in and token lifetimes (IAM_REFRESH_IDLE_SECONDS, IAM_REFRESH_ABSOLUTE_SECONDS, IAM_ACCESS_TOKEN_TTL_SECONDS, IAM_PASSWORD_MAX_AGE_DAYS). */
  auth: {
    refreshIdleSeconds: number;
    refreshAbsoluteSeconds: number;
    accessTokenTtlSeconds: number;
    passwordMaxAgeDays: number;
    /** IAM_AUTH_CACHE_MS (default 1000, at most 5000, 0 = off): how long an instance reuses a checked access token for reads, the bound for a sign-out, deactivation or password change to reach every instance (server/oidc/auth-cache.ts). */
    cacheMs: number;
  };
  /**
   * Signing-key rollover (IAM_KEYS_POLL_SECONDS, IAM_JWKS_MAX_AGE_SECONDS, IAM_KEYS_PREPUBLISH_SECONDS): every instance
   * re-reads `signing_keys` each `pollSeconds`; /oidc/jwks may be cached `jwksMaxAgeSeconds`; `keys:rotate` publishes the
   * next key `prepublishSeconds` (at least jwksMaxAge + 3 polls) before any instance signs with it.
   */
  keys: { pollSeconds: number; jwksMaxAgeSeconds: number; prepublishSeconds: number };
  /** Directory of the built SPA. */
  distDir: string;
  /** Dependency timeouts (docs/OPERATIONS.md): IAM_DB_POOL_SIZE, IAM_DB_CONNECT_TIMEOUT_MS, IAM_DB_QUERY_TIMEOUT_MS, IAM_REDIS_TIMEOUT_MS, IAM_HEALTH_TIMEOUT_MS, IAM_SHUTDOWN_DELAY_MS, IAM_SHUTDOWN_TIMEOUT_MS, IAM_JOB_LEASE_SECONDS. */
  timeouts: { dbPoolSize: number; dbConnectMs: number; dbQueryMs: number; redisMs: number; healthMs: number; shutdownDelayMs: number; shutdownMs: number; jobLeaseMs: number; outageLogMs: number };
  /**
   * OpenID Connect Back-Channel Logout (server/oidc/backchannel-logout.ts): how long one delivery of a logout token may
   * take before it counts as failed and is retried (IAM_BACKCHANNEL_LOGOUT_TIMEOUT_MS, default 5000).
   */
  backchannelLogout: { timeoutMs: number };
  /** Prometheus metrics: on the main port behind `Authorization: Bearer IAM_METRICS_TOKEN`, and/or on METRICS_PORT (METRICS_HOST, default 127.0.0.1). */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Requests per minute and client IP on /api and /oidc (IAM_RATE_LIMIT_PER_MINUTE, default 600). */
  rateLimitPerMinute: number;
  /**
   * Which reverse proxies' X-Forwarded-For / -Proto / -Host to believe (TRUST_PROXY, docs/OPERATIONS.md): `false` (unset,
   * the socket's address is the client's), a hop count (`1`: the right-most entry a trusted load balancer appended), or the
   * addresses/CIDRs of the proxies (`127.0.0.1,10.0.0.0/8`). Never `true`: that trusts the left-most entry, which the
   * client writes (issue 28 finding 2).
   */
  trustProxy: false | number | string[];
  /**
   * IAM_PLACE_HEADER (unset by default): the request header a trusted proxy sets to the client's country (ISO 3166-1
   * alpha-2, e.g. Cloudflare's `CF-IPCountry`); the sessions list shows it as the approximate place. Unset: no place
   * is shown (the product looks nothing up). Only set it when the proxy overwrites the header on every request.
   */
  placeHeader: string | undefined;
  /** Sender of every mail (MAIL_FROM). */
  mailFrom: string;
  /** Issuer shown in authenticator apps (IAM_TOTP_ISSUER, default IAM). */
  totpIssuer: string;
  /** Optional pepper mixed into the key that encrypts second-factor secrets (IAM_ENCRYPTION_KEY). */
  encryptionPepper: string;
  /** The new IAM_ENCRYPTION_KEY for `npm run keys:rotate-encryption` only (IAM_ENCRYPTION_KEY_NEW; undefined when unset). */
  encryptionPepperNext: string | undefined;
  /** Lifetime of invitation links in hours (IAM_INVITATION_TTL_HOURS, default 72, at most 90 days). */
  invitationTtlHours: number;
  /** Forgot-password answers 404 for an unknown e-mail instead of the neutral answer (IAM_FORGOT_PASSWORD_REVEAL=true). */
  forgotPasswordReveal: boolean;
  /** CSV import: files with more rows run as a job (IAM_IMPORT_SYNC_MAX_ROWS); invitation mails sent per second (IAM_INVITATIONS_PER_SECOND). */
  importJobs: { syncMaxRows: number; invitationsPerSecond: number };
  /**
   * Brute-force lockout (server/services/throttle.ts): IAM_LOCKOUT_MAX_FAILURES / _WINDOW_MINUTES / IAM_LOCKOUT_MINUTES for
   * account, e-mail and second-factor keys; IAM_IP_MAX_FAILURES / IAM_IP_WINDOW_MINUTES / IAM_IP_LOCKOUT_MINUTES for ip keys.
   */
  lockout: {
    accountMaxFailures: number;
    accountWindowMinutes: number;
    accountLockMinutes: number;
    ipMaxFailures: number;
    ipWindowMinutes: number;
    ipLockMinutes: number;
  };
  /**
   * Concurrent password hashes and hashes waiting (IAM_HASH_CONCURRENCY, default 1 per core; IAM_HASH_QUEUE, default 4 per
   * core: a short queue, a wait of about four hashes). They also size the sign-in admission gates (server/lib/admission.ts).
   */
  hashGate: { concurrency: number; queue: number };
  /**
   * How much lower the CPU priority of every thread but the event loop is set at start, in nice steps above the event
   * loop's (IAM_BACKGROUND_NICE, default 10, 0 = leave them; Linux): argon2id hashes on libuv's pool and V8's helpers
   * yield to the event loop (server/lib/thread-priority.ts).
   */
  backgroundNice: number;
  /**
   * Error log (`error_logs`, admin dashboard; server/services/error-log.ts). Every 5xx is recorded; client errors (4xx)
   * are admitted by a token bucket per (status, code, route template) of `routeBurst` rows refilled at `routePerMinute`
   * (IAM_ERROR_LOG_ROUTE_BURST, default 5; IAM_ERROR_LOG_ROUTE_PER_MINUTE, default 5) and by a cap of
   * `clientPerMinute` 4xx rows per minute and instance (IAM_ERROR_LOG_CLIENT_PER_MINUTE, default 60); 0 turns client
   * errors off. Retention: rows older than `retentionDays` (IAM_ERROR_LOG_RETENTION_DAYS, default 30) and beyond the
   * newest `maxRows` (IAM_ERROR_LOG_MAX_ROWS, default 100000) are deleted every 10 minutes.
   */
  errorLog: { routeBurst: number; routePerMinute: number; clientPerMinute: number; retentionDays: number; maxRows: number };
  /**
   * Origins of a development server in front of this one (IAM_DEV_ORIGINS, e.g. `http://localhost:5173` for
   * `npm run dev`): the first-party clients also accept their `/login` and `/admin/login` as redirect and
   * post-logout URIs, the provider answers their CORS calls, and interactions started from them return to them.
   * Only with NODE_ENV=development; refused at start otherwise.
   */
  devOrigins: string[];
  /**
   * Whether the server migrates the database at start (IAM_MIGRATE, `on` by default). `off`: a separate migration job
   * runs `npm run db:migrate`; the server refuses to start while a migration of its release is pending, and starts on a
   * database ahead of it only by `expand` migrations (server/db/migrate.ts, docs/OPERATIONS.md).
   */
  migrate: boolean;
  isProduction: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
  }
}

type Env = Record<string, string | undefined>;

/**
 * Password hashing limits when IAM_HASH_CONCURRENCY / IAM_HASH_QUEUE are not set: 1 hash per core, 4 waiting per core.
 * argon2id keeps a core busy for its whole run, so a second hash per core adds no throughput: it only holds another
 * 19 MiB buffer and doubles how long every hash in flight takes, so refusals come later and the peak memory is higher
 * (BENCHMARKS.md "One hash per core": same capacity, refusal p99 30 ms instead of 117–521, peak RSS 296 instead of 317–322 MB).
 */
export function defaultHashGateLimits(): AppConfig['hashGate'] {
  const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  return { concurrency: cores, queue: cores * 4 };
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/** A comma-separated list of http(s) origins (scheme://host[:port], nothing after it). */
function origins(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const value = item.trim().replace(/\/+$/, '');
    const parsed = URL.parse(value);
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== value) throw new ConfigError(name, `must list origins like http://localhost:5173, got "${item.trim()}"`);
    return parsed.origin;
  });
}

const TRUST_PROXY_FORMS = 'must be a hop count (e.g. 1) or a comma-separated list of trusted proxy addresses/CIDRs (e.g. 127.0.0.1,10.0.0.0/8)';
/** The address names proxy-addr (Fastify's trustProxy) knows besides addresses and CIDRs. */
const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `a.b.c.d`, an IPv6 address, or either with `/prefix` (0–32 / 0–128), or one of proxy-addr's names. */
function isProxyAddress(item: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(item)) return true;
  const slash = item.indexOf('/');
  const address = slash < 0 ? item : item.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const prefix = item.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset (or empty) trusts no proxy; a hop count `1`–`10` trusts that many proxies in front (Fastify takes
 * the entry that many places from the right of X-Forwarded-For); a comma-separated list trusts those addresses/CIDRs.
 * `true` (trust every hop, so the client's own left-most entry) and anything else stop the start.
 */
function trustProxyOf(env: Env): AppConfig['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new ConfigError('TRUST_PROXY', `${TRUST_PROXY_FORMS}; a hop count is 1 to 10, got "${raw}"`);
    return hops;
  }
  const items = raw.split(',').map((item) => item.trim());
  if (items.some((item) => !isProxyAddress(item))) throw new ConfigError('TRUST_PROXY', `${TRUST_PROXY_FORMS}, got "${raw}"`);
  return items;
}

/** The default public origin when APP_URL is not set: the one the server prints and redirects loopback visits to. */
export const defaultAppUrl = (port: number): string => `http://localhost:${port}`;

/** IAM_AUTH_CACHE_MS (default 1000, 0–5000): the bound for an ended grant to reach every instance (server/oidc/auth-cache.ts). */
/** IAM_PLACE_HEADER: a header name (letters, digits, dashes), kept lower-cased as Node gives headers; unset = none. */
function placeHeaderOf(env: Env): string | undefined {
  const raw = env.IAM_PLACE_HEADER?.trim();
  if (!raw) return undefined;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(raw)) throw new ConfigError('IAM_PLACE_HEADER', `must be a header name such as CF-IPCountry, got "${raw}"`);
  return raw.toLowerCase();
}

export function authCacheMs(env: Env = process.env): number {
  return int(env, 'IAM_AUTH_CACHE_MS', 1000, 0, 5000);
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const appUrl = (url(env, 'APP_URL', ['http:', 'https:']) ?? defaultAppUrl(port)).replace(/\/+$/, '');
  const dataDir = path.resolve(env.IAM_DATA_DIR || './data');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const redisKeyPrefix = env.IAM_REDIS_PREFIX ?? 'iam:';
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(redisKeyPrefix)) throw new ConfigError('IAM_REDIS_PREFIX', `must be up to 64 of A-Z a-z 0-9 : _ . -, got "${redisKeyPrefix}"`);
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  const migrate = (env.IAM_MIGRATE || 'on').trim().toLowerCase();
  if (migrate !== 'on' && migrate !== 'off') throw new ConfigError('IAM_MIGRATE', `must be "on" (migrate at start, the default) or "off" (a separate job runs npm run db:migrate), got "${env.IAM_MIGRATE}"`);
  const adminEmail = env.IAM_ADMIN_EMAIL || undefined;
  const adminPassword = env.IAM_ADMIN_PASSWORD || undefined;
  if (adminEmail && !z.email().safeParse(adminEmail).success) {
    throw new ConfigError('IAM_ADMIN_EMAIL', `must be an e-mail address, got "${adminEmail}"`);
  }
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    throw new ConfigError(adminEmail ? 'IAM_ADMIN_PASSWORD' : 'IAM_ADMIN_EMAIL', 'must be set together with its pair');
  }
  const smsProvider = (env.SMS_PROVIDER || 'log') as string;
  if (smsProvider !== 'log' && smsProvider !== 'twilio') {
    throw new ConfigError('SMS_PROVIDER', `must be "log" or "twilio", got "${smsProvider}"`);
  }
  const twilio = {
    accountSid: env.TWILIO_ACCOUNT_SID,
    authToken: env.TWILIO_AUTH_TOKEN,
    from: env.TWILIO_FROM,
    baseUrl: url(env, 'TWILIO_BASE_URL', ['http:', 'https:']) ?? 'https://api.twilio.com',
  };
  if (smsProvider === 'twilio') {
    for (const [k, v] of [
      ['TWILIO_ACCOUNT_SID', twilio.accountSid],
      ['TWILIO_AUTH_TOKEN', twilio.authToken],
      ['TWILIO_FROM', twilio.from],
    ] as const) {
      if (!v) throw new ConfigError(k, 'is required when SMS_PROVIDER=twilio');
    }
  }
  let ssoProviders: SsoProviderConfig[] = [];
  if (env.SSO_PROVIDERS) {
    let json: unknown;
    try {
      json = JSON.parse(env.SSO_PROVIDERS);
    } catch {
      throw new ConfigError('SSO_PROVIDERS', 'must be a JSON list of providers');
    }
    const parsed = z.array(ssoProviderSchema).safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigError('SSO_PROVIDERS', `is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
    }
    ssoProviders = parsed.data;
  }
  const pollSeconds = int(env, 'IAM_KEYS_POLL_SECONDS', 30, 1, 300);
  const jwksMaxAgeSeconds = int(env, 'IAM_JWKS_MAX_AGE_SECONDS', 600, 0, 86400);
  // every instance publishes a new key within 3 polls (its stale-snapshot bound), relying parties within their cache age after that
  const minPrepublish = jwksMaxAgeSeconds + 3 * pollSeconds;
  const prepublishSeconds = int(env, 'IAM_KEYS_PREPUBLISH_SECONDS', Math.max(3600, minPrepublish), minPrepublish, 30 * 86400);
  const logLevel = (env.LOG_LEVEL || 'info') as AppConfig['logLevel'];
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
  }
  const metricsToken = env.IAM_METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('IAM_METRICS_TOKEN', 'must be at least 16 characters');
  const metricsPort = env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 0, 65535) : undefined;
  const hashDefaults = defaultHashGateLimits();
  const devOrigins = origins(env, 'IAM_DEV_ORIGINS');
  if (devOrigins.length > 0 && env.NODE_ENV !== 'development') throw new ConfigError('IAM_DEV_ORIGINS', `is only accepted with NODE_ENV=development (NODE_ENV is "${env.NODE_ENV ?? ''}")`);
  return {
    port,
    host,
    appUrl,
    issuer: `${appUrl}/oidc`,
    dataDir,
    databaseUrl,
    redisUrl,
    redisKeyPrefix,
    adminEmail,
    adminPassword,
    smtpUrl,
    smsProvider,
    twilio,
    ssoProviders,
    logLevel,
    auth: {
      refreshIdleSeconds: int(env, 'IAM_REFRESH_IDLE_SECONDS', 14 * 86400, 60, 365 * 86400),
      refreshAbsoluteSeconds: int(env, 'IAM_REFRESH_ABSOLUTE_SECONDS', 30 * 86400, 60, 3 * 365 * 86400),
      accessTokenTtlSeconds: int(env, 'IAM_ACCESS_TOKEN_TTL_SECONDS', 600, 30, 86400),
      cacheMs: authCacheMs(env),
      passwordMaxAgeDays: int(env, 'IAM_PASSWORD_MAX_AGE_DAYS', 0, 0, 3650),
    },
    keys: { pollSeconds, jwksMaxAgeSeconds, prepublishSeconds },
    distDir: path.resolve(env.IAM_DIST_DIR || './dist'),
    timeouts: {
      dbPoolSize: int(env, 'IAM_DB_POOL_SIZE', 10, 1, 1000),
      dbConnectMs: int(env, 'IAM_DB_CONNECT_TIMEOUT_MS', 3000, 100, 600_000),
      dbQueryMs: int(env, 'IAM_DB_QUERY_TIMEOUT_MS', 5000, 100, 3_600_000),
      redisMs: int(env, 'IAM_REDIS_TIMEOUT_MS', 1000, 50, 600_000),
      healthMs: int(env, 'IAM_HEALTH_TIMEOUT_MS', 2000, 50, 60_000),
      // at SIGTERM readiness answers 503 at once, the listener keeps serving this long (the load balancer's probe
      // notices), then the instance drains (docs/OPERATIONS.md "Shutdown")
      shutdownDelayMs: int(env, 'IAM_SHUTDOWN_DELAY_MS', 0, 0, 600_000),
      shutdownMs: int(env, 'IAM_SHUTDOWN_TIMEOUT_MS', 15_000, 0, 600_000),
      jobLeaseMs: int(env, 'IAM_JOB_LEASE_SECONDS', 60, 1, 3600) * 1000,
      // requests answered 503 for a dependency: one line at the first, then one line with the count per window
      outageLogMs: int(env, 'IAM_OUTAGE_LOG_SECONDS', 60, 1, 3600) * 1000,
    },
    backchannelLogout: { timeoutMs: int(env, 'IAM_BACKCHANNEL_LOGOUT_TIMEOUT_MS', 5000, 100, 60_000) },
    metrics: { token: metricsToken, port: metricsPort, host: env.METRICS_HOST || '127.0.0.1' },
    rateLimitPerMinute: int(env, 'IAM_RATE_LIMIT_PER_MINUTE', 600, 1, 100_000_000),
    trustProxy: trustProxyOf(env),
    placeHeader: placeHeaderOf(env),
    mailFrom: env.MAIL_FROM || 'IAM <no-reply@localhost>',
    totpIssuer: env.IAM_TOTP_ISSUER || 'IAM',
    encryptionPepper: env.IAM_ENCRYPTION_KEY ?? '',
    encryptionPepperNext: env.IAM_ENCRYPTION_KEY_NEW,
    invitationTtlHours: int(env, 'IAM_INVITATION_TTL_HOURS', 72, 1, 24 * 90),
    forgotPasswordReveal: env.IAM_FORGOT_PASSWORD_REVEAL === 'true',
    importJobs: {
      syncMaxRows: int(env, 'IAM_IMPORT_SYNC_MAX_ROWS', 2000, 0, 10_000_000),
      invitationsPerSecond: int(env, 'IAM_INVITATIONS_PER_SECOND', 20, 1, 100_000),
    },
    lockout: {
      accountMaxFailures: int(env, 'IAM_LOCKOUT_MAX_FAILURES', 5, 1, 100_000_000),
      accountWindowMinutes: int(env, 'IAM_LOCKOUT_WINDOW_MINUTES', 15, 1, 366 * 1440),
      accountLockMinutes: int(env, 'IAM_LOCKOUT_MINUTES', 15, 1, 366 * 1440),
      ipMaxFailures: int(env, 'IAM_IP_MAX_FAILURES', 50, 1, 100_000_000),
      ipWindowMinutes: int(env, 'IAM_IP_WINDOW_MINUTES', 15, 1, 366 * 1440),
      ipLockMinutes: int(env, 'IAM_IP_LOCKOUT_MINUTES', 15, 1, 366 * 1440),
    },
    hashGate: {
      concurrency: int(env, 'IAM_HASH_CONCURRENCY', hashDefaults.concurrency, 1, 10_000),
      queue: int(env, 'IAM_HASH_QUEUE', hashDefaults.queue, 0, 1_000_000),
    },
    backgroundNice: int(env, 'IAM_BACKGROUND_NICE', 10, 0, 19),
    errorLog: {
      routeBurst: int(env, 'IAM_ERROR_LOG_ROUTE_BURST', 5, 1, 100_000),
      routePerMinute: int(env, 'IAM_ERROR_LOG_ROUTE_PER_MINUTE', 5, 0, 100_000),
      clientPerMinute: int(env, 'IAM_ERROR_LOG_CLIENT_PER_MINUTE', 60, 0, 1_000_000),
      retentionDays: int(env, 'IAM_ERROR_LOG_RETENTION_DAYS', 30, 1, 3650),
      maxRows: int(env, 'IAM_ERROR_LOG_MAX_ROWS', 100_000, 100, 100_000_000),
    },
    devOrigins,
    migrate: migrate === 'on',
    isProduction: env.NODE_ENV === 'production',
  };
}
