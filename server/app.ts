import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { serializerCompiler } from './lib/serializer';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import path from 'node:path';
import type { AppConfig } from './config';
import { importAvatarFiles } from './services/admin/avatars';
import { createDb, migrateToLatest, type Db, type DbLogger, type DbOptions } from './db/index';
import { assertSchemaReady } from './db/migrate';
import { createMailer, type Mailer } from './services/mail';
import { hashGate } from './services/passwords';
import { checkEncryptionKey } from './services/server-secrets';
import { createOidcRuntime } from './oidc/index';
import security, { PERMISSIONS_POLICY } from './plugins/external/security';
import i18n from './plugins/app/i18n';
import errors from './plugins/app/errors';
import auth from './plugins/app/auth';
import inputGuard from './plugins/app/input-guard';
import noStore from './plugins/app/no-store';
import routes from './plugins/app/routes';
import services from './plugins/app/services';
import maintenance from './plugins/app/maintenance';
import spa from './plugins/app/spa';
import canonicalOrigin from './plugins/app/canonical-origin';
import metrics, { requestIdOf } from './plugins/app/metrics';
import admission from './plugins/app/admission';
import { randomUUID } from 'node:crypto';
import { negotiateLanguage, translate } from './i18n/index';
import { errorResponses } from './lib/openapi';
import type { Clock } from './services/deps';

const GLOBAL_ERROR_RESPONSES = errorResponses(400, 404, 413, 414, 415, 422, 429, 503);

export interface BuildOptions {
  config: AppConfig;
  /** Inject a database (tests); otherwise one is created from the config. */
  db?: Db;
  mailer?: Mailer;
  logger?: boolean;
  /** Run migrations on start (default true). */
  migrate?: boolean;
  /** The services' clock (tests set the time); the system clock by default. */
  clock?: Clock;
}

/** Database options from the configuration (timeouts, pool size), logging to `log`. */
export function dbOptionsOf(config: AppConfig, log?: DbLogger): DbOptions {
  return {
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'iam.sqlite'),
    poolSize: config.timeouts.dbPoolSize,
    connectTimeoutMs: config.timeouts.dbConnectMs,
    queryTimeoutMs: config.timeouts.dbQueryMs,
    ...(log ? { log } : {}),
  };
}

/**
 * Fastify's trustProxy for TRUST_PROXY (server/config.ts). A list of proxy addresses/CIDRs goes as is (proxy-addr
 * walks X-Forwarded-For from the right while the hop is one of them). A hop count `n` becomes "the socket and the
 * n-1 entries before it are proxies": the client is the entry the n-th proxy appended. (Fastify 5.8+ reads a bare
 * number as "trust nothing", since a hop count cannot check who the peer is: docs/OPERATIONS.md says to use it only
 * when the proxy is the only way in.) Never `true`, which would take the left-most entry, the client's own.
 */
export function trustProxyOption(trustProxy: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // registering every route takes seconds of CPU: on a busy or CPU-limited host Fastify's 10 s default failed the start
    pluginTimeout: 60_000,
    // every log line of a request carries reqId; the same id goes back in the x-request-id header
    requestIdHeader: false,
    genReqId: (req) => requestIdOf(req.headers, randomUUID),
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    // URLs the router refuses before any hook runs (bad percent-encoding, a path parameter over maxParamLength)
    // answer in the common error shape too, localized from the headers
    frameworkErrors: (err, request, reply) => {
      const status = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const code = status === 414 ? 'uri_too_long' : 'bad_request';
      const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
      const lang = negotiateLanguage(header(request.headers.locale), header(request.headers['accept-language']));
      return (reply as FastifyReply).status(status).header('permissions-policy', PERMISSIONS_POLICY).type('application/json; charset=utf-8').send({ error: { code, message: translate(lang, code) } });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // core: config, database, mail, the OIDC runtime (signing keys, provider)
  const db = opts.db ?? createDb(dbOptionsOf(config, app.log));
  if (opts.migrate !== false) {
    const ahead = (names: string[]) =>
      app.log.info({ migrations: names }, `database schema is ahead of this release by ${names.length} expand migration${names.length > 1 ? 's' : ''} (${names.join(', ')}): compatible, starting`);
    if (!config.migrate) {
      // IAM_MIGRATE=off: a separate job migrates (npm run db:migrate); refuse a schema this release cannot run on
      const { ahead: newer } = await assertSchemaReady(db);
      if (newer.length) ahead(newer);
    } else if (opts.db || db.dialect === 'sqlite') await migrateToLatest(db, { onAhead: ahead });
    else {
      // migrations may run longer than a request's statement timeout: their own connection without one
      const migrationDb = createDb({ ...dbOptionsOf(config, app.log), poolSize: 1, queryTimeoutMs: 24 * 3600_000 });
      try {
        await migrateToLatest(migrationDb, { onAhead: ahead });
      } finally {
        await migrationDb.close();
      }
    }
    // avatar files of a release before migration 0014 move into the database (idempotent; one query when none)
    const avatars = await importAvatarFiles({ db, config });
    if (avatars.moved || avatars.missing) app.log.info(avatars, 'avatar files moved into the database');
  }
  hashGate.configure(config.hashGate);
  app.decorate('config', config);
  app.decorate('lifecycle', { draining: false });
  app.decorate('db', db);
  app.decorate('mailer', opts.mailer ?? createMailer(config, app.log));
  const oidc = createOidcRuntime({ db, config, log: app.log, mailer: app.mailer });
  app.decorate('oidc', oidc);
  // the TOTP encryption key decrypts the stored secrets (IAM_ENCRYPTION_KEY): one error line at start if not, and
  // readiness answers 503 encryption_key_mismatch (docs/OPERATIONS.md, "Encryption key")
  app.addHook('onReady', async () => {
    await checkEncryptionKey(app).catch((err: unknown) => app.log.warn({ err }, 'encryption key check failed; readiness runs it again'));
  });
  // back-channel logout tokens queued by this or a stopped instance go out from now on (server/oidc/backchannel-logout.ts)
  app.addHook('onReady', async () => oidc.logoutDeliveries.start());
  app.addHook('onClose', async () => {
    await oidc.close();
    app.mailer.close();
    if (!opts.db) await db.close();
  });

  // external tier (third-party plugins): headers, cookies, multipart, the global rate limit. Its rate limit
  // attaches to each route after the route's own onRequest hooks, so it still runs after the app tier's
  // request hooks below (language, request id, no-store) and its 429 goes through the app's error handler.
  await app.register(security);

  // app tier: services, i18n, metrics, errors, auth, input guard, no-store, housekeeping, canonical origin
  await app.register(services, { clock: opts.clock });
  await app.register(i18n);
  await app.register(metrics);
  await app.register(admission);
  await app.register(errors);
  await app.register(auth);
  await app.register(inputGuard);
  await app.register(noStore);
  await app.register(maintenance);
  // page loads on another loopback name of this server go to APP_URL (the only origin the provider accepts)
  await app.register(canonicalOrigin);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'IAM API', version: '1.0.0', description: 'Identity and access management REST API. Errors: `{error:{code,message,fields}}`.' },
      servers: [{ url: config.appUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or API key' } } },
    },
    // refusals any route can give (malformed request, unknown URL, size limits, NUL guard, rate limit, database
    // down) are documented on every operation, next to the route's own error statuses
    transform: (input) =>
      jsonSchemaTransform(
        input.schema && !input.schema.hide
          ? { ...input, schema: { ...input.schema, response: { ...GLOBAL_ERROR_RESPONSES, ...((input.schema.response as Record<string, unknown> | undefined) ?? {}) } } }
          : input,
      ),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header,
    uiConfig: { deepLinking: true },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // routes tier
  await app.register(routes);
  await app.register(spa);
  return app;
}
