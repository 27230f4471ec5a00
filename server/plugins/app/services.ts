import fp from 'fastify-plugin';
import { systemClock, type Clock, type Deps } from '../../services/deps';
import { createJobRunner } from '../../services/jobs';
import { createCatalogService, type CatalogService } from '../../services/admin/catalog';
import { createServiceAppsService, type ServiceAppsService } from '../../services/admin/service-apps';
import { createSetupService, type SetupService } from '../../services/setup';
import { createSignInService, type SignInService } from '../../services/sign-in';
import { createSsoService, type SsoService } from '../../services/sso';
import { createMeService, type MeService } from '../../services/me';
import { createAccountPasswordsService, type AccountPasswordsService } from '../../services/account-passwords';
import { createApiKeysService, type ApiKeysService } from '../../services/api-keys';
import { createSessionsService, type SessionsService } from '../../services/sessions';
import { createInvitationsService, type InvitationsService } from '../../services/invitations';
import { createLocksService, type LocksService } from '../../services/locks';
import { createPasswordResetService, type PasswordResetService } from '../../services/password-reset';
import { createProfileService, type ProfileService } from '../../services/profile';
import { createTwoFactorService, type TwoFactorService } from '../../services/two-factor';
import { oidcOf, type OidcHandle } from '../../oidc/index';
import { createUsersService, type UsersService } from '../../services/admin/users';
import { createImportService, type ImportService } from '../../services/admin/import';
import { createAdminsService, type AdminsService } from '../../services/admin/admins';
import { createLogsService, type LogsService } from '../../services/admin/logs';
import { createErrorLogService, type ErrorLogService } from '../../services/error-log';
import { createPasskeysService, type PasskeysService } from '../../services/passkeys';

/** The services of the app, built once from explicit dependencies (server/services/deps.ts). */
export interface Services {
  catalog: CatalogService;
  serviceApps: ServiceAppsService;
  setup: SetupService;
  signIn: SignInService;
  sso: SsoService;
  me: MeService;
  accountPasswords: AccountPasswordsService;
  apiKeys: ApiKeysService;
  sessions: SessionsService;
  invitations: InvitationsService;
  locks: LocksService;
  passwordReset: PasswordResetService;
  profile: ProfileService;
  twoFactor: TwoFactorService;
  users: UsersService;
  usersImport: ImportService;
  admins: AdminsService;
  logs: LogsService;
  errorLog: ErrorLogService;
  passkeys: PasskeysService;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What services depend on: database, configuration, mailer, clock, logger, job runner. */
    deps: Deps;
    /** `deps.clock`: the app is a ClockedHost for the helpers that take one (throttle, second factors). */
    clock: Clock;
    services: Services;
  }
}

/** `oidc`: the app's OIDC provider (the sign-in services finish its interactions). */
export function createServices(deps: Deps, oidc: OidcHandle): Services {
  const signIn = createSignInService(deps, oidc);
  return {
    catalog: createCatalogService(deps),
    serviceApps: createServiceAppsService(deps),
    setup: createSetupService(deps),
    signIn,
    sso: createSsoService(deps, signIn),
    me: createMeService(deps),
    accountPasswords: createAccountPasswordsService(deps),
    apiKeys: createApiKeysService(deps),
    sessions: createSessionsService(deps),
    invitations: createInvitationsService(deps),
    locks: createLocksService(deps),
    passwordReset: createPasswordResetService(deps),
    profile: createProfileService(deps),
    twoFactor: createTwoFactorService(deps),
    users: createUsersService(deps),
    usersImport: createImportService(deps),
    admins: createAdminsService(deps),
    logs: createLogsService(deps),
    errorLog: createErrorLogService(deps),
    passkeys: createPasskeysService(deps),
  };
}

/**
 * App tier: decorates `app.deps` and `app.services` (after the database and the mailer exist); `clock` is the
 * system clock unless the app was built with another (tests, BuildOptions.clock). The background jobs
 * (server/services/jobs.ts) start when the app is ready and, on shutdown, stop and release their leases before the
 * database closes.
 */
export default fp<{ clock?: Clock | undefined }>(
  async (app, opts) => {
    const clock = opts.clock ?? systemClock;
    const jobs = createJobRunner(app.log, clock);
    const deps: Deps = { db: app.db, config: app.config, mailer: app.mailer, clock, log: app.log, jobs };
    app.decorate('deps', deps);
    app.decorate('clock', clock);
    app.decorate('services', createServices(deps, oidcOf(app)));
    app.addHook('onReady', async () => jobs.start());
    app.addHook('preClose', async () => {
      app.lifecycle.draining = true;
      await jobs.drain();
    });
  },
  { name: 'services' },
);
