import { AppError } from '../errors';
import { recordAudit } from './admin/audit';
import type { AdminRole } from '../../contract/domain/admin-roles';
import type { Actor, Deps } from './deps';
import { clearLock, listLocks, throttleKeys, type LockInfo } from './throttle';

/** Who asks: a super_admin administers every lock, a manager only those of the users they manage. */
export type LockAdminRole = AdminRole;

/**
 * Lockouts, as admins see and clear them (issue 28 finding 3). A manager manages users, not admins: they see and clear
 * the `account:` and `otp:` keys of user accounts (and `account:unknown:user:…`, the key of a guessed unknown user
 * e-mail) and `email:user:…` keys; never an admin's `account:`/`otp:`/`email:admin:` key, never an `ip:` lock (one
 * address may be shared by many people, admins included), nor any other key. A super_admin administers all of them.
 * Every clear is an audit entry `lock.cleared` (who, which key, when; the lock's failures and end as `before`).
 */
export function createLocksService(deps: Deps) {
  const { db } = deps;

  /** The keys among `locks` a manager may administer (one query for the account keys' types). */
  async function managerMay(keys: string[]): Promise<Set<string>> {
    const accountIds = new Map<string, string>();
    const allowed = new Set<string>();
    for (const key of keys) {
      if (key.startsWith('email:user:') || key.startsWith('account:unknown:user:')) allowed.add(key);
      else if (key.startsWith('account:unknown:')) continue;
      else if (key.startsWith('account:') || key.startsWith('otp:')) accountIds.set(key, key.slice(key.indexOf(':') + 1));
    }
    const ids = [...new Set(accountIds.values())];
    const users = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db.kysely.selectFrom('accounts').select('id').where('type', '=', 'user').where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) users.add(r.id);
    }
    for (const [key, id] of accountIds) if (users.has(id)) allowed.add(key);
    return allowed;
  }

  async function visible(role: LockAdminRole, locks: LockInfo[]): Promise<LockInfo[]> {
    if (role === 'super_admin') return locks;
    const allowed = await managerMay(locks.map((l) => l.key));
    return locks.filter((l) => allowed.has(l.key));
  }

  return {
    /** Locked keys the admin may administer: those of one account (its `account:` and `otp:` keys), or all starting with `prefix`. */
    async list(role: LockAdminRole, filter: { account_id?: string | undefined; prefix?: string | undefined }): Promise<LockInfo[]> {
      const { account_id, prefix } = filter;
      if (account_id) {
        const keys = [throttleKeys.account(account_id), throttleKeys.otp(account_id)];
        return visible(role, (await Promise.all(keys.map((k) => listLocks(deps, k)))).flat().filter((l) => keys.includes(l.key)));
      }
      return visible(role, await listLocks(deps, prefix));
    },

    /**
     * Clears a lock and its failure counter, and records it in the audit trail. A manager asking for a lock that is not
     * theirs to clear gets 403 `lock_forbidden` whether or not it exists; rate-limit counters (`rate:`) are not locks
     * (404 `lock_not_found`).
     */
    async clear(actor: Actor, role: LockAdminRole, key: string): Promise<void> {
      if (role !== 'super_admin' && !(await managerMay([key])).has(key)) throw new AppError(403, 'lock_forbidden');
      if (key.startsWith('rate:')) throw new AppError(404, 'lock_not_found');
      const before = (await listLocks(deps, key)).find((l) => l.key === key);
      if (!(await clearLock(deps, key))) throw new AppError(404, 'lock_not_found');
      await recordAudit(db.kysely, actor, 'lock.cleared', 'lock', key, before ? { failures: before.failures, locked_until: before.locked_until } : { locked: false }, null, deps.clock.nowIso());
    },
  };
}
export type LocksService = ReturnType<typeof createLocksService>;
