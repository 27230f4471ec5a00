import fp from 'fastify-plugin';
import { startCounterCleanup } from '../../services/throttle';

/** Housekeeping of the app's own tables: expired throttle counters are deleted in bounded rounds (every 10 minutes). */
export default fp(async (app) => {
  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = startCounterCleanup(app);
  });
  app.addHook('onClose', async () => stop?.());
});
