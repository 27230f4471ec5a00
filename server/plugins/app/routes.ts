import fp from 'fastify-plugin';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

const routesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'routes');

function findRouteFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return findRouteFiles(full);
      return /\.routes\.(ts|js)$/.test(name) ? [full] : [];
    });
}

/** Registers every `server/routes/**\/*.routes.ts` under `/api`. */
export default fp(async (app) => {
  for (const file of findRouteFiles(routesDir)) {
    const mod = (await import(file)) as { default: FastifyPluginAsync; prefix?: string };
    await app.register(mod.default, { prefix: mod.prefix ?? '/api' });
  }
});
