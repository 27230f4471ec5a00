import type { Redis } from 'ioredis';
import type { ClientConfig, Readiness } from '../../contract/system';
import type { AppConfig } from '../config';
import { pingDbWithin } from '../db/index';
import { AppError } from '../errors';
import { LANGUAGES, FALLBACK_LANGUAGE } from '../i18n/index';
import { closeRedis, createRedis } from '../lib/redis';
import type { ServiceHost } from './deps';
import { checkEncryptionKey, encryptionKeyStatus } from './server-secrets';

/** The development origin (IAM_DEV_ORIGINS) a request came through, from its Host header (the Vite proxy keeps it). */
export function devOriginOf(config: Pick<AppConfig, 'devOrigins'>, host: string | undefined): string | undefined {
  if (!host) return undefined;
  return config.devOrigins.find((origin) => origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * The public client configuration (`GET /api/config`): the provider's endpoints, client ids, SSO providers, languages.
 * Asked through a development origin (`npm run dev`), the endpoints the SPA fetches (token, revocation) are on that
 * origin, behind its /oidc proxy: the SPA's client sends credentials, which a cross-origin answer of the provider
 * would not allow. The pages (authorization, end session) stay on APP_URL, where the provider's cookies live.
 */
export function clientConfigOf(config: Pick<AppConfig, 'issuer' | 'ssoProviders' | 'devOrigins'>, devOrigin?: string): ClientConfig {
  const issuer = config.issuer;
  const fetched = devOrigin ? `${devOrigin}/oidc` : issuer;
  return {
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${fetched}/token`,
    end_session_endpoint: `${issuer}/session/end`,
    revocation_endpoint: `${fetched}/token/revocation`,
    userinfo_endpoint: `${issuer}/me`,
    jwks_uri: `${issuer}/jwks`,
    scope: 'openid profile email offline_access',
    clients: { portal: 'portal', admin: 'admin-console' },
    sso_providers: config.ssoProviders.map((p) => ({ id: p.id, name: p.name })),
    languages: [...LANGUAGES],
    default_locale: FALLBACK_LANGUAGE,
  };
}

export interface ReadinessCheck {
  /**
   * 503 `shutting_down` while draining, `database_unavailable` when the database does not answer in time,
   * `encryption_key_mismatch` when IAM_ENCRYPTION_KEY cannot decrypt the stored TOTP secrets. Redis is
   * reported (`redis: unavailable`, `status: degraded`) but does not make the instance unready.
   */
  check(): Promise<Readiness>;
  close(): Promise<void>;
}

const KEY_RECHECK_MS = 30_000;

const notReady = (code: string, cause?: unknown) =>
  new AppError(503, code, { ...(cause === undefined ? {} : { cause }), headers: { 'retry-after': code === 'shutting_down' ? '1' : '5', 'cache-control': 'no-store' } });

/**
 * Readiness (docs/OPERATIONS.md), "can this instance serve?": the database answers within IAM_HEALTH_TIMEOUT_MS and
 * the instance is not shutting down (`draining()`). Redis, when configured, is pinged on its own connection and
 * reported: only some routes need it (they answer 503 while it is away), so an outage must not take every
 * instance out of the load balancer at once.
 */
export function createReadinessCheck(deps: ServiceHost, draining: () => boolean): ReadinessCheck {
  const healthMs = deps.config.timeouts.healthMs;
  const redis: Redis | undefined = deps.config.redisUrl ? createRedis(deps.config.redisUrl, 'health', { log: deps.log, timeoutMs: healthMs }) : undefined;
  const within = <T>(p: Promise<T>, ms: number): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('deadline')), ms)))]).finally(() => clearTimeout(timer));
  };
  return {
    async check() {
      if (draining()) throw notReady('shutting_down');
      try {
        await pingDbWithin(deps.db, healthMs);
      } catch (cause) {
        throw notReady('database_unavailable', cause);
      }
      // a TOTP encryption key that cannot decrypt the stored secrets (IAM_ENCRYPTION_KEY): this instance would fail
      // every authenticator-app sign-in, so it is not ready (checked at start; again every 30 s while it fails)
      const key = encryptionKeyStatus(deps.db);
      let keyStatus = key.status;
      if (keyStatus === 'unchecked' || (keyStatus === 'mismatch' && Date.now() - key.checkedAt > KEY_RECHECK_MS)) {
        try {
          keyStatus = await within(checkEncryptionKey(deps, { reload: keyStatus === 'mismatch' }), healthMs);
        } catch (cause) {
          throw notReady('database_unavailable', cause);
        }
      }
      if (keyStatus === 'mismatch') throw notReady('encryption_key_mismatch');
      let redisState: Readiness['data']['redis'] = 'not_configured';
      if (redis) {
        redisState = await within(redis.ping(), healthMs).then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        );
      }
      return { data: { status: redisState === 'unavailable' ? 'degraded' : 'ok', database: deps.db.dialect, redis: redisState, encryption_key: 'ok' } };
    },
    async close() {
      if (redis) await closeRedis(redis);
    },
  };
}
