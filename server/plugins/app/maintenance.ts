import fp from 'fastify-plugin';
import { startCounterCleanup } from '../../services/throttle';
import { refreshStatistics, tablesWithoutStatistics } from '../../db/statistics';

/**
 * Housekeeping of the app's own tables (every 10 minutes): expired throttle counters are deleted in bounded rounds;
 * the error log keeps its retention (server/services/error-log.ts, IAM_ERROR_LOG_RETENTION_DAYS / _MAX_ROWS).
 * At start, the planner statistics of the list's tables are gathered in the background when a table of some size has
 * none (server/db/statistics.ts: e.g. a database restored or bulk-loaded without ANALYZE).
 */
export default fp(async (app) => {
  const stops: (() => void)[] = [];
  let statistics: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    stops.push(startCounterCleanup(app), app.services.errorLog.startRetention());
    statistics = tablesWithoutStatistics(app.db)
      .then((tables) => (tables.length ? refreshStatistics(app.db, tables, app.log, 'missing at start') : undefined))
      .catch((err: unknown) => app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'planner statistics check failed'));
  });
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
    await statistics;
  });
});
