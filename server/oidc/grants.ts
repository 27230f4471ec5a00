import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';
import type { Deps } from '../services/deps';

/** Artefacts that keep an account signed in somewhere. */
const ACCOUNT_MODELS = ['Grant', 'Session', 'RefreshToken', 'AccessToken', 'AuthorizationCode'] as const;

/**
 * Ends every session and grant of an account: grants, sessions, refresh tokens, access tokens and
 * pending authorization codes are deleted, so its access tokens stop working at once (the bearer
 * verifier checks the grant) and refresh tokens fail. `exceptGrantId` keeps one grant (the caller's
 * own session, e.g. after changing the password) together with its tokens and the session holding it.
 * Open sign-in activities of the ended grants get their logged_out_at. Returns the number of grants ended.
 */
export async function revokeAccountGrants(deps: Pick<Deps, 'db'>, accountId: string, opts: { exceptGrantId?: string } = {}): Promise<number> {
  return revokeAccountGrantsDb(deps.db.kysely, accountId, opts);
}

export async function revokeAccountGrantsDb(db: Kysely<Database>, accountId: string, opts: { exceptGrantId?: string } = {}): Promise<number> {
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
  await db
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
    await db
      .updateTable('auth_activities')
      .set({ logged_out_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('session_ref', 'in', ids)
      .where('logged_out_at', 'is', null)
      .execute();
  }
  return ids.length;
}
