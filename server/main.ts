import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig, ConfigError, type AppConfig } from './config';
import { buildApp } from './app';
import { bootstrapFirstAdmin, setupBanner } from './services/bootstrap';
import { lowerBackgroundThreadPriority } from './lib/thread-priority';
import { loadPg } from './lib/optional-packages';

/** host:port/database of a PostgreSQL URL, without credentials, for log lines. */
function describeDatabase(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/**
 * Waits until PostgreSQL answers (DATABASE_URL set): one attempt per 1, 2, 4, 8, then every 10 seconds, each
 * with a log line naming the database and the error, until it answers or the process is told to stop.
 */
async function waitForDatabase(config: AppConfig, log: pino.Logger, stop: AbortSignal): Promise<boolean> {
  const url = config.databaseUrl;
  if (!url) return true;
  const started = Date.now();
  for (let attempt = 1; !stop.aborted; attempt++) {
    const client = new (loadPg().Client)({ connectionString: url, connectionTimeoutMillis: config.timeouts.dbConnectMs, query_timeout: config.timeouts.dbConnectMs });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      if (attempt > 1) log.info({ database: describeDatabase(url), waitedMs: Date.now() - started }, 'database reachable; starting');
      return true;
    } catch (err) {
      const delay = Math.min(1000 * 2 ** (attempt - 1), 10_000);
      const reason = err instanceof Error ? [(err as { code?: string }).code, err.message].filter(Boolean).join(' ') : String(err);
      log.warn(
        { database: describeDatabase(url), attempt, retryInMs: delay, err: reason },
        `database ${describeDatabase(url)} not reachable (${reason}); retrying in ${delay / 1000} s`,
      );
      await sleep(delay, undefined, { signal: stop }).catch(() => {});
    } finally {
      await client.end().catch(() => {});
    }
  }
  return false;
}

/**
 * How long each step of the start took, in ms: `modules` (Node's own start and loading the server's modules, up to
 * main()), `database` (waiting for PostgreSQL; 0 on SQLite), `app` (buildApp: database open and migrations, keys,
 * the provider, routes), `bootstrap` (the first admin), `listen`, and `total` since the process started.
 */
export function startupSteps(marks: Record<string, number>): Record<string, number> {
  const order = ['modules', 'database', 'app', 'bootstrap', 'listen'];
  const out: Record<string, number> = {};
  let previous = 0;
  for (const step of order) {
    const at = marks[step];
    if (at === undefined) continue;
    out[step] = Math.round(at - previous);
    previous = at;
  }
  out.total = Math.round(previous);
  return out;
}

async function main(): Promise<void> {
  // milliseconds since the process started (performance's time origin), at each step of the start, for the log line
  // that says the server is ready (BENCHMARKS.md "Start-up")
  const marks: Record<string, number> = { modules: performance.now() };
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
  const log = pino({ level: config.logLevel });

  // a stop signal while still starting ends the wait; once serving, it drains (below)
  const stopping = new AbortController();
  const serving: { shutdown?: (signal: string) => void } = {};
  const onSignal = (signal: string) => {
    if (serving.shutdown) serving.shutdown(signal);
    else {
      log.info({ signal }, 'stopped while starting');
      stopping.abort();
    }
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  if (!(await waitForDatabase(config, log, stopping.signal))) process.exit(0);
  marks.database = performance.now();

  const app = await buildApp({ config });
  marks.app = performance.now();
  let setupLink: string | undefined;
  try {
    ({ setupLink } = await bootstrapFirstAdmin(app));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      await app.close();
      process.exit(78);
    }
    throw e;
  }

  let closing = false;
  let endDelay: (() => void) | undefined;
  const shutdown = (signal: string) => {
    if (closing) {
      // a second signal during the shutdown delay drains at once
      endDelay?.();
      return;
    }
    closing = true;
    // readiness answers 503 from now on (answers carry Connection: close). With IAM_SHUTDOWN_DELAY_MS (SIGTERM only:
    // Ctrl-C in a terminal stops at once) the listener keeps serving for that long, so a load balancer polling
    // readiness takes the instance out before it stops accepting connections; then close() stops accepting
    // connections, waits for the requests in flight, and runs the onClose hooks (import jobs release their
    // leases, pools close)
    app.lifecycle.draining = true;
    const delayMs = signal === 'SIGTERM' ? config.timeouts.shutdownDelayMs : 0;
    if (delayMs > 0) app.log.info({ signal, delayMs }, `shutting down: readiness answers 503; serving for ${delayMs} ms before draining`);
    const delay = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      endDelay = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const shutdownMs = config.timeouts.shutdownMs;
    const drain = () => {
      endDelay = undefined;
      app.log.info({ signal }, 'shutting down: draining requests in flight');
      const force = setTimeout(() => {
        app.log.error({ timeoutMs: shutdownMs }, 'shutdown took too long; exiting');
        process.exit(1);
      }, shutdownMs);
      force.unref();
      // keep-alive connections that finish their request while draining are closed right away
      const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
      idleSweep.unref();
      app.close().then(
        () => {
          app.log.info('shut down');
          process.exit(0);
        },
        (err: unknown) => {
          app.log.error({ err }, 'error during shutdown');
          process.exit(1);
        },
      );
    };
    void delay.then(drain);
  };
  serving.shutdown = shutdown;
  if (stopping.signal.aborted) return shutdown('SIGTERM');
  marks.bootstrap = performance.now();
  // Fastify prints the socket (127.0.0.1 by default); people open APP_URL (localhost by default), the one origin
  await app.listen({ port: config.port, host: config.host });
  marks.listen = performance.now();
  // argon2id's threads and V8's helpers yield the CPU to the event loop (IAM_BACKGROUND_NICE)
  const niced = await lowerBackgroundThreadPriority(config.backgroundNice);
  if (niced.skipped && niced.skipped !== 'disabled') app.log.warn({ reason: niced.skipped }, 'background threads keep their CPU priority');
  else if (niced.lowered.length > 0) app.log.info({ threads: niced.lowered.length, nice: config.backgroundNice }, 'background threads run at a lower CPU priority');
  app.log.info({ startupMs: startupSteps(marks) }, `IAM is at ${config.appUrl} (${app.db.dialect}); open it there (other local names of this server redirect to it)`);
  // the one-time setup link once more, as the last thing printed (issue 29: ~180 lines of build output buried it)
  // through the logger's own stream, so it lands after the log lines above (pino buffers them; console.log would
  // overtake them)
  if (setupLink) {
    const stream = (app.log as unknown as Record<symbol, { write?: (chunk: string) => unknown } | undefined>)[pino.symbols.streamSym];
    if (stream?.write) stream.write(`${setupBanner(setupLink, true)}\n`);
    else console.log(setupBanner(setupLink, true));
  }
}

// last line of defence: a stray rejection is logged, not fatal (connection errors are handled where they occur)
process.on('unhandledRejection', (reason) => {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'unhandled rejection', err: reason instanceof Error ? reason.message : String(reason) }));
});

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
