import { loadConfig, ConfigError } from './config';
import { buildApp } from './app';
import { bootstrapFirstAdmin } from './services/bootstrap';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78);
    }
    throw e;
  }
  const app = await buildApp({ config });
  try {
    await bootstrapFirstAdmin(app);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      await app.close();
      process.exit(78);
    }
    throw e;
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`IAM listening on ${config.appUrl} (${app.db.dialect})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
