import fp from 'fastify-plugin';
import { startCounterCleanup } from '../../services/throttle';

/**
 * Housekeeping of the app's own tables (every 10 minutes): expired throttle counters are deleted in bounded rounds;
 * the error log keeps its retention (server/services/error-log.ts, IAM_ERROR_LOG_RETENTION_DAYS / _MAX_ROWS).
 */
export default fp(async (app) => {
  const stops: (() => void)[] = [];
  app.addHook('onReady', async () => {
    stops.push(startCounterCleanup(app), app.services.errorLog.startRetention());
  });
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
  });
});
