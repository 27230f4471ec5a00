import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account, Database } from '../db/schema';
import type { SessionView } from '../../contract/sessions';
import { AppError } from '../errors';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '../i18n/index';
import { parseUserAgent, userAgentFamily } from '../lib/user-agent';
import { sessionAuthorizations, wakeLogoutDeliveries } from '../oidc/backchannel-logout';
import { endStoredSessions, type StoredSession } from '../oidc/grants';
import type { PendingActivity } from '../oidc/activity';
import { displayName } from './account-passwords';
import { recordAudit } from './admin/audit';
import type { Actor, Deps } from './deps';

/**
 * Sessions and devices (issue 33; docs/ACCOUNT-SECURITY.md "Sessions and devices").
 *
 * A session is a provider session (oidc-provider's `Session` in `oidc_models`): one browser's sign-in, holding one
 * grant per app it signed in to (the portal or the admin console, and the service apps reached through it by single
 * sign-on). `account_sessions` (migration 0019) adds what the list shows, by the session's uid: the browser, the
 * address and place at sign-in, when it signed in and when it was last used. Ending a session ends every grant it
 * holds with their refresh and access tokens (server/oidc/grants.ts endStoredSessions), and its apps are told by
 * back-channel logout; each end is audited.
 */

/** The browser's device cookie: a random id, signed with the provider's cookie keys, for the new-device rule. */
export const DEVICE_COOKIE = 'iam_device';
/** 400 days, the longest a browser keeps a cookie (RFC 6265bis). */
export const DEVICE_COOKIE_MAX_AGE_MS = 400 * 86_400_000;
/** A known device not seen this long is forgotten. */
export const DEVICE_RETENTION_MS = DEVICE_COOKIE_MAX_AGE_MS;
/** `last_used_at` is written at most this often per session. */
export const LAST_USED_EVERY_MS = 60_000;

const DEVICE_ID_RE = /^[A-Za-z0-9_-]{22,64}$/;
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const iso = (ms: number): string => new Date(ms).toISOString();

/** Reads and sets the signed device cookie of the browser completing a sign-in (the provider's koa cookies). */
export interface DeviceCookie {
  get(): string | undefined;
  set(id: string): void;
}

/** "Firefox on Windows", in the mail's language. */
const ON: Record<Language, (browser: string, os: string) => string> = {
  en: (b, o) => `${b} on ${o}`,
  de: (b, o) => `${b} unter ${o}`,
  fr: (b, o) => `${b} sur ${o}`,
  it: (b, o) => `${b} su ${o}`,
};
const UNKNOWN: Record<Language, string> = { en: 'an unknown browser', de: 'ein unbekannter Browser', fr: 'un navigateur inconnu', it: 'un browser sconosciuto' };

export function deviceLabel(userAgent: string | null, lang: Language): string {
  const { browser, os } = parseUserAgent(userAgent);
  if (browser && os) return ON[lang](browser, os);
  return browser ?? os ?? UNKNOWN[lang];
}

/**
 * A sign-in completed in a browser (loadExistingGrant, server/oidc/provider.ts): the session's record is written
 * (or renewed: a new sign-in inside the same session) and the device is checked.
 *
 * The new-device rule: a browser is known to an account by the id in its device cookie (`iam_device`, random, signed
 * with the provider's cookie keys, 400 days) together with its User-Agent family (browser and system, without
 * versions). A sign-in whose pair the account has not seen is a new device and the person is mailed — except when the
 * account has no known device at all (its first sign-in after the invitation, the registration or the upgrade that
 * brought this rule): that one is recorded silently. A copied cookie in another browser is a new pair, so it is mailed;
 * a cleared cookie reads as a new device.
 */
export async function recordSignIn(
  deps: Pick<Deps, 'db' | 'config' | 'mailer' | 'log' | 'clock'>,
  input: { sessionUid: string; sessionExpiresAt: number; activity: PendingActivity; device: DeviceCookie; account?: Account | undefined },
): Promise<void> {
  const db = deps.db.kysely;
  const { activity } = input;
  const now = deps.clock.now().getTime();
  const at = iso(now);
  const row = {
    uid: input.sessionUid,
    account_id: activity.accountId,
    user_agent: activity.userAgent?.slice(0, 500) ?? null,
    ip_address: activity.ip,
    place: activity.place ?? null,
    signed_in_at: at,
    last_used_at: at,
    expires_at: input.sessionExpiresAt,
  };
  await db
    .insertInto('account_sessions')
    .values(row)
    .onConflict((oc) => oc.column('uid').doUpdateSet({ account_id: row.account_id, user_agent: row.user_agent, ip_address: row.ip_address, place: row.place, signed_in_at: at, last_used_at: at, expires_at: row.expires_at }))
    .execute();

  let id = input.device.get();
  if (!id || !DEVICE_ID_RE.test(id)) {
    id = randomBytes(16).toString('base64url');
    input.device.set(id);
  }
  const key = { account_id: activity.accountId, device_hash: sha256(id), family: userAgentFamily(activity.userAgent) };
  // one statement for a known device (its last_seen_at moves); a new one comes back with first_seen_at = now
  const seen = await db
    .insertInto('account_devices')
    .values({ ...key, first_seen_at: at, last_seen_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'device_hash', 'family']).doUpdateSet({ last_seen_at: at }))
    .returning('first_seen_at')
    .executeTakeFirst();
  if (seen?.first_seen_at !== at) return;
  // the account's first device (its first sign-in after the invitation or registration) is recorded without a mail
  const other = await db
    .selectFrom('account_devices')
    .select('account_id')
    .where('account_id', '=', key.account_id)
    .where((eb) => eb.or([eb('device_hash', '!=', key.device_hash), eb('family', '!=', key.family)]))
    .limit(1)
    .executeTakeFirst();
  if (!other) return;
  const account = input.account ?? (await db.selectFrom('accounts').selectAll().where('id', '=', key.account_id).executeTakeFirst());
  // sent in the background: the sign-in does not wait for the mail server
  if (account) void mailNewDevice(deps, account, row.user_agent, row.ip_address, now);
}

/** The "new sign-in" mail; a mail failure is logged, never fails the sign-in. */
async function mailNewDevice(deps: Pick<Deps, 'config' | 'mailer' | 'log'>, account: Account, userAgent: string | null, ip: string | null, at: number): Promise<void> {
  const lang: Language = isLanguage(account.locale) ? account.locale : FALLBACK_LANGUAGE;
  const time = `${new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
  const link = `${deps.config.appUrl}${account.type === 'admin' ? '/admin/profile' : '/profile'}#sessions`;
  try {
    await deps.mailer.send({ to: account.email, template: 'new_device_sign_in', locale: account.locale, params: { name: displayName(account), device: deviceLabel(userAgent, lang), time, ip: ip ?? '?', link } });
  } catch (err) {
    deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'new-device mail failed');
  }
}

/**
 * The session was used (a token refresh or a sign-in to another app through it): `last_used_at` moves, at most once
 * per LAST_USED_EVERY_MS (a conditional UPDATE that changes nothing in between).
 */
export async function touchSession(db: Kysely<Database>, uid: string, now = Date.now()): Promise<void> {
  await db.updateTable('account_sessions').set({ last_used_at: iso(now) }).where('uid', '=', uid).where('last_used_at', '<', iso(now - LAST_USED_EVERY_MS)).execute();
}

/** Deletes the records of sessions past their end and devices not seen for DEVICE_RETENTION_MS. */
export async function cleanupSessionRecords(db: Kysely<Database>, now = Date.now()): Promise<number> {
  // past its expected end and no longer a live provider session (a session kept longer keeps its record)
  const a = await db
    .deleteFrom('account_sessions')
    .where('expires_at', '<=', Math.floor(now / 1000))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('oidc_models').select('id').where('model', '=', 'Session').whereRef('oidc_models.uid', '=', 'account_sessions.uid'))))
    .executeTakeFirst();
  const b = await db.deleteFrom('account_devices').where('last_seen_at', '<', iso(now - DEVICE_RETENTION_MS)).executeTakeFirst();
  return Number(a.numDeletedRows) + Number(b.numDeletedRows);
}

interface LiveSession extends StoredSession {
  uid: string;
  loginTs: number | null;
}

/** The account's live provider sessions (not expired). */
async function liveSessions(db: Kysely<Database>, accountId: string): Promise<LiveSession[]> {
  const rows = await db
    .selectFrom('oidc_models')
    .select(['id', 'uid', 'payload', 'account_id', 'expires_at'])
    .where('model', '=', 'Session')
    .where('account_id', '=', accountId)
    .execute();
  const now = Math.floor(Date.now() / 1000);
  return rows.flatMap((r) => {
    if (!r.uid || (r.expires_at !== null && Number(r.expires_at) <= now)) return [];
    let loginTs: number | null = null;
    try {
      const p = JSON.parse(r.payload) as { loginTs?: unknown };
      loginTs = typeof p.loginTs === 'number' ? p.loginTs : null;
    } catch {
      return [];
    }
    return [{ id: r.id, uid: r.uid, payload: r.payload, account_id: r.account_id, loginTs }];
  });
}

/** Whether a session holds grant `grantId` (the caller's own session). */
const holdsGrant = (s: StoredSession, grantId: string | null | undefined): boolean => !!grantId && sessionAuthorizations(s.payload).some((a) => a.grantId === grantId);

/** The sessions list: the caller's own session (holding `currentGrantId`) first, then by last use. */
export async function listSessions(db: Kysely<Database>, accountId: string, currentGrantId: string | null): Promise<SessionView[]> {
  const sessions = await liveSessions(db, accountId);
  if (!sessions.length) return [];
  const meta = new Map(
    (await db.selectFrom('account_sessions').selectAll().where('uid', 'in', sessions.map((s) => s.uid)).where('account_id', '=', accountId).execute()).map((m) => [m.uid, m]),
  );
  const clientIds = [...new Set(sessions.flatMap((s) => sessionAuthorizations(s.payload).map((a) => a.clientId)))];
  const names = new Map(
    clientIds.length ? (await db.selectFrom('service_apps').select(['name', 'display_name']).where('name', 'in', clientIds).execute()).map((a) => [a.name, a.display_name]) : [],
  );
  const views = sessions.map((s): SessionView => {
    const m = meta.get(s.uid);
    const ua = parseUserAgent(m?.user_agent);
    const signedIn = m?.signed_in_at ?? (s.loginTs !== null ? iso(s.loginTs * 1000) : new Date(0).toISOString());
    return {
      id: s.uid,
      current: holdsGrant(s, currentGrantId),
      ...ua,
      ip_address: m?.ip_address ?? null,
      place: m?.place ?? null,
      signed_in_at: signedIn,
      last_used_at: m?.last_used_at ?? signedIn,
      apps: sessionAuthorizations(s.payload).map((a) => ({ client_id: a.clientId, name: names.get(a.clientId) ?? null })),
    };
  });
  return views.sort((a, b) => Number(b.current) - Number(a.current) || b.last_used_at.localeCompare(a.last_used_at) || a.id.localeCompare(b.id));
}

/** Ends `sessions` of `account` with their records, audited as `action`, in one transaction. */
async function endAudited(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, account: Account, sessions: readonly LiveSession[], action: string, after: Record<string, unknown>): Promise<number> {
  if (!sessions.length) return 0;
  const db = deps.db.kysely;
  await db.transaction().execute(async (trx) => {
    await endStoredSessions(trx, sessions, 'sessions_ended');
    await trx.deleteFrom('account_sessions').where('uid', 'in', sessions.map((s) => s.uid)).execute();
    await recordAudit(trx, actor, `${account.type}.${action}`, account.type, account.id, null, after, deps.clock.nowIso());
  });
  // the logout tokens were queued inside the transaction: send them now it committed
  wakeLogoutDeliveries(db);
  return sessions.length;
}

/** A user account by id, for an admin's view (404 user_not_found for anything else, admins included). */
async function userAccount(db: Kysely<Database>, id: string): Promise<Account> {
  const a = await db.selectFrom('accounts').selectAll().where('id', '=', id).where('type', '=', 'user').executeTakeFirst();
  if (!a) throw new AppError(404, 'user_not_found');
  return a;
}

export function createSessionsService(deps: Deps) {
  const db = () => deps.db.kysely;
  const service = {
    list: (account: Account, currentGrantId: string | null) => listSessions(db(), account.id, currentGrantId),
    /** An admin's view of a user's sessions (no session is "current" there). */
    listOfUser: async (userId: string) => listSessions(db(), (await userAccount(db(), userId)).id, null),
    /** An admin ends one of a user's sessions. */
    endOfUser: async (actor: Actor, userId: string, uid: string) => service.end(actor, await userAccount(db(), userId), uid),

    /** Ends one session of `account` (404 session_not_found for any other account's, or one that ended). */
    async end(actor: Actor, account: Account, uid: string): Promise<number> {
      const session = (await liveSessions(db(), account.id)).find((s) => s.uid === uid);
      if (!session) throw new AppError(404, 'session_not_found');
      const meta = await db().selectFrom('account_sessions').select(['user_agent', 'ip_address']).where('uid', '=', uid).executeTakeFirst();
      return endAudited(deps, actor, account, [session], 'session_ended', { session: uid, device: deviceLabel(meta?.user_agent ?? null, 'en'), ip_address: meta?.ip_address ?? null });
    },

    /** Ends every session of `account` but the one holding `currentGrantId`. */
    async endOthers(actor: Actor, account: Account, currentGrantId: string | null): Promise<number> {
      const others = (await liveSessions(db(), account.id)).filter((s) => !holdsGrant(s, currentGrantId));
      return endAudited(deps, actor, account, others, 'other_sessions_ended', { sessions_ended: others.length });
    },
  };
  return service;
}
export type SessionsService = ReturnType<typeof createSessionsService>;
