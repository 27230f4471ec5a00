import fp from 'fastify-plugin';
import { systemClock, type Deps } from '../../services/deps';
import { createCatalogService, type CatalogService } from '../../services/admin/catalog';
import { createServiceAppsService, type ServiceAppsService } from '../../services/admin/service-apps';

/** The services of the app, built once from explicit dependencies (server/services/deps.ts). */
export interface Services {
  catalog: CatalogService;
  serviceApps: ServiceAppsService;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What services depend on: database, configuration, mailer, clock, logger. */
    deps: Deps;
    services: Services;
  }
}

export function createServices(deps: Deps): Services {
  return {
    catalog: createCatalogService(deps),
    serviceApps: createServiceAppsService(deps),
  };
}

/** App tier: decorates `app.deps` and `app.services` (after the database and the mailer exist). */
export default fp(
  async (app) => {
    const deps: Deps = { db: app.db, config: app.config, mailer: app.mailer, clock: systemClock, log: app.log };
    app.decorate('deps', deps);
    app.decorate('services', createServices(deps));
  },
  { name: 'services' },
);
