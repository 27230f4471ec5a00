import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';
import type { Deps } from '../services/deps';
import { enqueueLogouts, logoutTargetsOf, sessionAuthorizations, wakeLogoutDeliveries, type LogoutReason } from './backchannel-logout';

/** Artefacts that keep an account signed in somewhere. */
const ACCOUNT_MODELS = ['Grant', 'Session', 'RefreshToken', 'AccessToken', 'AuthorizationCode'] as const;

/** Runs `fn` in a transaction of `db`, or in `db` itself when it is one already. */
async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

export interface RevokeOptions {
  /** keep this grant (the caller's own session, e.g. after changing the password) */
  exceptGrantId?: string;
  /** why, for the logout tokens the service apps receive (default sessions_ended) */
  reason?: LogoutReason;
}

/**
 * Ends every session and grant of an account: grants, sessions, refresh tokens, access tokens and
 * pending authorization codes are deleted, so its access tokens stop working at once (the bearer
 * verifier checks the grant) and refresh tokens fail. `exceptGrantId` keeps one grant (the caller's
 * own session, e.g. after changing the password) together with its tokens and the session holding it.
 * Open sign-in activities of the ended grants get their logged_out_at. Every service app of an ended
 * grant or session that registered a back-channel logout URI gets a logout token queued in the same
 * transaction (server/oidc/backchannel-logout.ts). Returns the number of grants ended.
 */
export async function revokeAccountGrants(deps: Pick<Deps, 'db'>, accountId: string, opts: RevokeOptions = {}): Promise<number> {
  return revokeAccountGrantsDb(deps.db.kysely, accountId, opts);
}

export async function revokeAccountGrantsDb(db: Kysely<Database>, accountId: string, opts: RevokeOptions = {}): Promise<number> {
  const except = opts.exceptGrantId;
  const rows = await db
    .selectFrom('oidc_models')
    .select(['model', 'id', 'grant_id', 'payload'])
    .where('account_id', '=', accountId)
    .where('model', 'in', [...ACCOUNT_MODELS])
    .execute();
  const grantIds = new Set<string>();
  const sessionIds: string[] = [];
  for (const r of rows) {
    if (r.model === 'Grant' && r.id !== except) grantIds.add(r.id);
    else if (r.model === 'Session') {
      if (except && r.payload.includes(`"${except}"`)) continue;
      sessionIds.push(r.id);
    } else if (r.grant_id && r.grant_id !== except) grantIds.add(r.grant_id);
  }
  const ids = [...grantIds];
  const targets = logoutTargetsOf(rows, { grants: grantIds, sessions: new Set(sessionIds) });
  const queued = await inTransaction(db, async (trx) => {
    await trx
      .deleteFrom('oidc_models')
      .where((eb) => {
        const tokenConds = [eb('account_id', '=', accountId), eb('model', 'in', ['RefreshToken', 'AccessToken', 'AuthorizationCode'])];
        if (except) tokenConds.push(eb.or([eb('grant_id', 'is', null), eb('grant_id', '!=', except)]));
        const ors = [eb.and(tokenConds)];
        if (ids.length) ors.push(eb('grant_id', 'in', ids), eb.and([eb('model', '=', 'Grant'), eb('id', 'in', ids)]));
        if (sessionIds.length) ors.push(eb.and([eb('model', '=', 'Session'), eb('id', 'in', sessionIds)]));
        return eb.or(ors);
      })
      .execute();
    if (ids.length) {
      await trx
        .updateTable('auth_activities')
        .set({ logged_out_at: nowIso() })
        .where('account_id', '=', accountId)
        .where('session_ref', 'in', ids)
        .where('logged_out_at', 'is', null)
        .execute();
    }
    return targets.length ? enqueueLogouts(trx, accountId, targets, opts.reason ?? 'sessions_ended') : 0;
  });
  if (queued) wakeLogoutDeliveries(db);
  return ids.length;
}

/**
 * Signing out of the portal or the admin console (`POST /api/logout`): ends the provider session(s) holding `grantId`
 * and every grant of those sessions — the service apps the person signed in to through the same session end with it,
 * as with RP-initiated logout — with their tokens, records the sign-outs, and queues a logout token for each service
 * app of those sessions that registered a back-channel logout URI, all in one transaction. Answers the ended sessions'
 * uids (their `sid`).
 */
export async function endSessionsOfGrant(db: Kysely<Database>, grantId: string, reason: LogoutReason = 'sign_out'): Promise<string[]> {
  const candidates = await db.selectFrom('oidc_models').select(['id', 'payload', 'account_id']).where('model', '=', 'Session').where('payload', 'like', `%${grantId}%`).execute();
  const sessions = candidates.filter((s) => s.payload.includes(`"${grantId}"`));
  return endStoredSessions(db, sessions, reason, [grantId]);
}

/** A provider session as stored (`oidc_models`, model `Session`). */
export interface StoredSession {
  id: string;
  payload: string;
  account_id: string | null;
}

/**
 * Ends stored provider sessions (a sign-out, or the sessions list's "End", server/services/sessions.ts): every grant of
 * each session (and `alsoGrants`) with all its artefacts, the sessions themselves, the sign-in activities of those
 * grants, and a queued logout token for each service app of the sessions that registered a back-channel logout URI;
 * in one transaction (or in the caller's). Refresh tokens die with their grant, access tokens on `/api` with it (the
 * bearer check reads the grant; the auth caches empty on the delete: server/oidc/auth-cache.ts). Answers the ended
 * sessions' uids.
 */
export async function endStoredSessions(db: Kysely<Database>, sessions: readonly StoredSession[], reason: LogoutReason, alsoGrants: readonly string[] = []): Promise<string[]> {
  const grants = new Set(alsoGrants);
  for (const s of sessions) for (const a of sessionAuthorizations(s.payload)) if (a.grantId) grants.add(a.grantId);
  const ids = [...grants];
  const queued = await inTransaction(db, async (trx) => {
    if (ids.length) {
      await trx
        .deleteFrom('oidc_models')
        .where((eb) => eb.or([eb('grant_id', 'in', ids), eb.and([eb('model', '=', 'Grant'), eb('id', 'in', ids)])]))
        .execute();
    }
    if (sessions.length) await trx.deleteFrom('oidc_models').where('model', '=', 'Session').where('id', 'in', sessions.map((s) => s.id)).execute();
    if (ids.length) await trx.updateTable('auth_activities').set({ logged_out_at: nowIso() }).where('session_ref', 'in', ids).where('logged_out_at', 'is', null).execute();
    let n = 0;
    for (const s of sessions) {
      const accountId = s.account_id;
      if (!accountId) continue;
      n += await enqueueLogouts(trx, accountId, sessionAuthorizations(s.payload).map((a) => ({ clientId: a.clientId, sid: a.sid })), reason);
    }
    return n;
  });
  if (queued) wakeLogoutDeliveries(db);
  return sessions.map((s) => (JSON.parse(s.payload) as { uid?: unknown }).uid).filter((uid): uid is string => typeof uid === 'string');
}
