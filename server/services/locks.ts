import { AppError } from '../errors';
import type { ServiceHost } from './deps';
import { clearLock, listLocks, throttleKeys, type LockInfo } from './throttle';

/** Lockouts, as admins see and clear them. */
export function createLocksService(deps: ServiceHost) {
  return {
    /** Locked keys: those of one account (its `account:` and `otp:` keys), or all starting with `prefix`. */
    async list(filter: { account_id?: string | undefined; prefix?: string | undefined }): Promise<LockInfo[]> {
      const { account_id, prefix } = filter;
      if (account_id) {
        const keys = [throttleKeys.account(account_id), throttleKeys.otp(account_id)];
        return (await Promise.all(keys.map((k) => listLocks(deps, k)))).flat().filter((l) => keys.includes(l.key));
      }
      return listLocks(deps, prefix);
    },

    /** Clears a lock and its failure counter; rate-limit counters (`rate:`) are not locks (404 `lock_not_found`). */
    async clear(key: string): Promise<void> {
      if (key.startsWith('rate:') || !(await clearLock(deps, key))) throw new AppError(404, 'lock_not_found');
    },
  };
}
export type LocksService = ReturnType<typeof createLocksService>;
