import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { PasskeyCredentialJSON, PasskeyView, SecondFactorPolicy, SecondFactorRequirement } from '../../contract/passkeys';
import type { Account, Database, Passkey, WebauthnChallengesTable } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit } from './admin/audit';
import { epochMs, type Actor, type ClockedHost, type Deps } from './deps';
import { isTwoFactorEnabled } from './two-factor';

/**
 * Passkeys (WebAuthn, issue 33; docs/ACCOUNT-SECURITY.md "Passkeys"). The ceremonies are checked by
 * @simplewebauthn/server; this module keeps what the library leaves to its caller:
 *
 * - **Relying party**: the RP id is the host name of `APP_URL`, the accepted origins are `APP_URL`'s origin (plus the
 *   development origins of `IAM_DEV_ORIGINS`); both are checked in every response (clientDataJSON.origin, rpIdHash).
 * - **Challenges** (`webauthn_challenges`, shared by every instance): 32 random bytes, valid 5 minutes, single use
 *   (the verification deletes the row before anything else, whatever the outcome) and bound to what asked for them:
 *   a sign-in's challenge to its interaction (whose browser the route has checked first), a registration's to the
 *   account and the session (grant) that asked. A challenge presented elsewhere is not found: 400
 *   `passkey_challenge_invalid`.
 * - **User verification** is required in every ceremony (`userVerification: 'required'` and the UV flag checked).
 * - **Sign counter**: stored, and a response whose counter does not grow (when either is non-zero) is a cloned
 *   authenticator: refused (401 `passkey_invalid`) and audited `passkey.counter_regression`. The library's own counter
 *   check is given counter 0 so that this module sees the regression and audits it, after the signature is verified.
 * - **Backup flags**: BE (`backup_eligible`, fixed at registration) and BS (`backed_up`, refreshed at every use).
 * - **amr** (RFC 8176): `hwk` when the authenticator said it is cross-platform (a security key) and the credential is
 *   not backup-eligible (device-bound: the key cannot leave that hardware), `swk` otherwise (platform authenticators
 *   and synced passkeys, whose key material a software layer holds).
 */

export const CHALLENGE_TTL_MS = 5 * 60_000;
/** What the browser is told to wait for the person (shorter than the challenge's life). */
const CEREMONY_TIMEOUT_MS = 120_000;
export const MAX_PASSKEYS_PER_ACCOUNT = 20;
/** ES256, EdDSA, RS256 */
const ALGORITHMS = [-7, -8, -257];
export const POLICY_SETTING = 'second_factor_policy';

export type PasskeyKind = 'hwk' | 'swk';
export type ChallengePurpose = WebauthnChallengesTable['purpose'];

/** The RP id and the origins a response may come from, from APP_URL (and the development origins). */
export function relyingParty(config: Deps['config']): { id: string; name: string; origins: string[] } {
  const app = new URL(config.appUrl);
  return { id: app.hostname, name: config.totpIssuer || 'IAM', origins: [app.origin, ...config.devOrigins.map((o) => new URL(o).origin)] };
}

export function passkeyKind(p: Pick<Passkey, 'attachment' | 'backup_eligible'>): PasskeyKind {
  return p.attachment === 'cross-platform' && !p.backup_eligible ? 'hwk' : 'swk';
}

export function passkeyView(p: Passkey): PasskeyView {
  return { id: p.id, name: p.name, created_at: p.created_at, last_used_at: p.last_used_at, kind: passkeyKind(p), backup_eligible: !!p.backup_eligible, backed_up: !!p.backed_up };
}

export const challengeInvalid = () => new AppError(400, 'passkey_challenge_invalid');
export const passkeyInvalid = (status: 401 | 422 = 401) => new AppError(status, 'passkey_invalid');
export const passkeyUnknown = () => new AppError(401, 'passkey_unknown');

/** The challenge the browser signed (clientDataJSON.challenge), or null when the JSON is not what a browser sends. */
export function challengeOf(credential: PasskeyCredentialJSON): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString('utf8'));
    const c = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).challenge : undefined;
    return typeof c === 'string' && c.length > 0 && c.length <= 200 ? c : null;
  } catch {
    return null;
  }
}

interface ChallengeBinding {
  purpose: ChallengePurpose;
  accountId?: string | null;
  interactionUid?: string | null;
  grantId?: string | null;
}

/** Stores a challenge handed out at `now` (epoch ms on deps.clock): it lives CHALLENGE_TTL_MS. */
async function storeChallenge(db: Kysely<Database>, challenge: string, b: ChallengeBinding, now: number): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({ challenge, purpose: b.purpose, account_id: b.accountId ?? null, interaction_uid: b.interactionUid ?? null, grant_id: b.grantId ?? null, expires_at: now + CHALLENGE_TTL_MS })
    .execute();
}

/**
 * Takes the challenge the response answers, once: deletes the row only when it was handed out for this purpose and
 * binding, and answers whether it was live. A second use, another interaction's or session's challenge, or an
 * expired one (at `now`, epoch ms on deps.clock) is 400 passkey_challenge_invalid.
 */
export async function takeChallenge(db: Kysely<Database>, credential: PasskeyCredentialJSON, b: ChallengeBinding, now: number): Promise<string> {
  const challenge = challengeOf(credential);
  if (!challenge) throw challengeInvalid();
  let q = db.deleteFrom('webauthn_challenges').where('challenge', '=', challenge).where('purpose', '=', b.purpose);
  q = b.interactionUid ? q.where('interaction_uid', '=', b.interactionUid) : q.where('interaction_uid', 'is', null);
  q = b.grantId ? q.where('grant_id', '=', b.grantId) : q.where('grant_id', 'is', null);
  q = b.accountId ? q.where('account_id', '=', b.accountId) : q.where('account_id', 'is', null);
  const row = await q.returning(['expires_at']).executeTakeFirst();
  if (!row || Number(row.expires_at) <= now) throw challengeInvalid();
  return challenge;
}

/** Deletes challenges nobody answered in time (run with the provider cleanup every 10 minutes). */
export async function cleanupChallenges(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const res = await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function passkeysOf(db: Kysely<Database>, accountId: string): Promise<Passkey[]> {
  return db.selectFrom('passkeys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function hasPasskey(db: Kysely<Database>, accountId: string): Promise<boolean> {
  return !!(await db.selectFrom('passkeys').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst());
}

const transportsOf = (p: Pick<Passkey, 'transports'>): AuthenticatorTransport[] | undefined => {
  if (!p.transports) return undefined;
  try {
    const list: unknown = JSON.parse(p.transports);
    return Array.isArray(list) ? list.filter((t): t is AuthenticatorTransport => typeof t === 'string') : undefined;
  } catch {
    return undefined;
  }
};

// ---------------------------------------------------------------- registration

/** Creation options for `account` (resident key and user verification required; its passkeys excluded), challenge stored. */
export async function registrationOptions(deps: ClockedHost, account: Account, binding: Omit<ChallengeBinding, 'accountId'>) {
  const db = deps.db.kysely;
  const existing = await passkeysOf(db, account.id);
  if (existing.length >= MAX_PASSKEYS_PER_ACCOUNT) throw new AppError(409, 'passkey_limit_reached');
  const rp = relyingParty(deps.config);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email,
    // the user handle: the account id (no personal data), so a discoverable credential names its account
    userID: new TextEncoder().encode(account.id),
    userDisplayName: `${account.first_name} ${account.last_name}`.trim() || account.email,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, ...(transportsOf(p) ? { transports: transportsOf(p) } : {}) })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(db, options.challenge, { ...binding, accountId: account.id }, epochMs(deps.clock));
  return { ...options };
}

/**
 * Verifies a registration answer against its (already taken) challenge and stores the passkey. 422 passkey_invalid
 * when the attestation does not verify (origin, RP id, user verification, signature); 409 when the credential is
 * registered already.
 */
export async function finishRegistration(deps: ClockedHost, account: Account, credential: PasskeyCredentialJSON, challenge: string, name: string, actor: Actor): Promise<Passkey> {
  const db = deps.db.kysely;
  const rp = relyingParty(deps.config);
  if (!credential.response.attestationObject) throw passkeyInvalid(422);
  const response: RegistrationResponseJSON = {
    id: credential.id,
    rawId: credential.rawId,
    type: 'public-key',
    clientExtensionResults: credential.clientExtensionResults,
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
    response: {
      clientDataJSON: credential.response.clientDataJSON,
      attestationObject: credential.response.attestationObject,
      ...(credential.response.transports ? { transports: credential.response.transports as AuthenticatorTransport[] } : {}),
    },
  };
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origins, expectedRPID: rp.id, requireUserVerification: true, supportedAlgorithmIDs: ALGORITHMS });
  } catch (err) {
    deps.log.info({ reason: err instanceof Error ? err.message : String(err) }, 'passkey registration refused');
    throw passkeyInvalid(422);
  }
  if (!verified.verified) throw passkeyInvalid(422);
  const info = verified.registrationInfo;
  const now = deps.clock.nowIso();
  const row: Passkey = {
    id: randomUUID(),
    account_id: account.id,
    credential_id: info.credential.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports?.length ? JSON.stringify(info.credential.transports) : null,
    attachment: credential.authenticatorAttachment ?? null,
    backup_eligible: info.credentialDeviceType === 'multiDevice' ? 1 : 0,
    backed_up: info.credentialBackedUp ? 1 : 0,
    aaguid: info.aaguid,
    name,
    created_at: now,
    last_used_at: null,
  };
  try {
    await db.transaction().execute(async (trx) => {
      const n = await trx.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', account.id).executeTakeFirstOrThrow();
      if (Number(n.n) >= MAX_PASSKEYS_PER_ACCOUNT) throw new AppError(409, 'passkey_limit_reached');
      await trx.insertInto('passkeys').values(row).execute();
      await recordAudit(trx, actor, 'passkey.registered', 'account', account.id, null, { passkey_id: row.id, name, kind: passkeyKind(row), backup_eligible: !!row.backup_eligible }, now);
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    const existing = await db.selectFrom('passkeys').select('id').where('credential_id', '=', row.credential_id).executeTakeFirst();
    if (existing) throw new AppError(409, 'passkey_already_registered');
    throw err;
  }
  return row;
}

// ---------------------------------------------------------------- authentication

/** Request options: the given passkeys (second factor) or none (discoverable: the browser offers what it holds). */
export async function authenticationOptions(deps: ClockedHost, allow: Passkey[], binding: ChallengeBinding) {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    allowCredentials: allow.map((p) => ({ id: p.credential_id, ...(transportsOf(p) ? { transports: transportsOf(p) } : {}) })),
    userVerification: 'required',
    timeout: CEREMONY_TIMEOUT_MS,
  });
  await storeChallenge(deps.db.kysely, options.challenge, binding, epochMs(deps.clock));
  return { ...options };
}

/**
 * Verifies an assertion with a stored passkey against its (already taken) challenge: the signature, origin, RP id,
 * user presence and verification, then the counter (a regression is audited and refused). Updates counter, BS flag
 * and last use. 401 passkey_invalid otherwise.
 */
export async function verifyAssertion(deps: ClockedHost, passkey: Passkey, credential: PasskeyCredentialJSON, challenge: string): Promise<Passkey> {
  const db = deps.db.kysely;
  const rp = relyingParty(deps.config);
  const { authenticatorData, signature } = credential.response;
  if (!authenticatorData || !signature) throw passkeyInvalid();
  const response: AuthenticationResponseJSON = {
    id: credential.id,
    rawId: credential.rawId,
    type: 'public-key',
    clientExtensionResults: credential.clientExtensionResults,
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
    response: { clientDataJSON: credential.response.clientDataJSON, authenticatorData, signature, ...(credential.response.userHandle ? { userHandle: credential.response.userHandle } : {}) },
  };
  let info;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      // counter 0: the library's counter check stays quiet, the regression is seen (and audited) below
      credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, 'base64url'), counter: 0, ...(transportsOf(passkey) ? { transports: transportsOf(passkey) } : {}) },
      requireUserVerification: true,
    });
    if (!verified.verified || !verified.authenticationInfo.userVerified) throw new Error('not verified');
    info = verified.authenticationInfo;
  } catch (err) {
    deps.log.info({ reason: err instanceof Error ? err.message : String(err), passkey: passkey.id }, 'passkey assertion refused');
    throw passkeyInvalid();
  }
  const stored = Number(passkey.counter);
  if ((info.newCounter > 0 || stored > 0) && info.newCounter <= stored) {
    // a cloned authenticator (or a replayed assertion): refused, and the account's owner and admins see it in the audit
    await recordAudit(db, { id: null, email: null, ip: null }, 'passkey.counter_regression', 'account', passkey.account_id, { counter: stored }, { passkey_id: passkey.id, counter: info.newCounter });
    deps.log.warn({ passkey: passkey.id, stored, presented: info.newCounter }, 'passkey counter went backwards: possible cloned authenticator');
    throw passkeyInvalid();
  }
  const now = deps.clock.nowIso();
  // the counter only moves forward, also when two instances verify two assertions of the key at once
  const res = await db
    .updateTable('passkeys')
    .set({ counter: info.newCounter, backed_up: info.credentialBackedUp ? 1 : 0, last_used_at: now })
    .where('id', '=', passkey.id)
    .where('counter', info.newCounter === 0 ? '=' : '<', info.newCounter)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) {
    const gone = !(await db.selectFrom('passkeys').select('id').where('id', '=', passkey.id).executeTakeFirst());
    if (gone) throw passkeyUnknown();
    await recordAudit(db, { id: null, email: null, ip: null }, 'passkey.counter_regression', 'account', passkey.account_id, { counter: stored }, { passkey_id: passkey.id, counter: info.newCounter });
    throw passkeyInvalid();
  }
  return { ...passkey, counter: info.newCounter, backed_up: info.credentialBackedUp ? 1 : 0, last_used_at: now };
}

export async function passkeyByCredentialId(db: Kysely<Database>, credentialId: string): Promise<Passkey | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

// ---------------------------------------------------------------- who must have what (admin setting)

const RANK: Record<SecondFactorRequirement, number> = { none: 0, second_factor: 1, passkey: 2 };

export async function readPolicy(db: Kysely<Database>): Promise<SecondFactorPolicy> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', POLICY_SETTING).executeTakeFirst();
  return parsePolicy(row?.value ?? null);
}

/** The stored setting (app_settings `second_factor_policy`, JSON), or nobody required when absent or unreadable. */
export function parsePolicy(value: string | null): SecondFactorPolicy {
  if (!value) return { admins: 'none', roles: [] };
  try {
    const v = JSON.parse(value) as Partial<SecondFactorPolicy>;
    const ok = (r: unknown): r is SecondFactorRequirement => r === 'none' || r === 'second_factor' || r === 'passkey';
    return {
      admins: ok(v.admins) ? v.admins : 'none',
      roles: Array.isArray(v.roles) ? v.roles.filter((r) => r && typeof r.role_id === 'string' && ok(r.requirement)) : [],
    };
  } catch {
    return { admins: 'none', roles: [] };
  }
}

export async function writePolicy(db: Kysely<Database>, policy: SecondFactorPolicy, now: string): Promise<void> {
  const value = JSON.stringify(policy);
  await db.insertInto('app_settings').values({ key: POLICY_SETTING, value, updated_at: now }).onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now })).execute();
}

/** What the setting asks of this account: the admins' requirement, or the strictest of the user's roles. */
export async function requirementFor(db: Kysely<Database>, account: Pick<Account, 'id' | 'type'>, known?: SecondFactorPolicy): Promise<SecondFactorRequirement> {
  const policy = known ?? (await readPolicy(db));
  if (account.type === 'admin') return policy.admins;
  const ruled = policy.roles.filter((r) => r.requirement !== 'none');
  if (ruled.length === 0) return 'none';
  const held = await db.selectFrom('role_subscriptions').select('role_id').distinct().where('account_id', '=', account.id).where('role_id', 'in', ruled.map((r) => r.role_id)).execute();
  const ids = new Set(held.map((h) => h.role_id));
  return ruled.filter((r) => ids.has(r.role_id)).reduce<SecondFactorRequirement>((acc, r) => (RANK[r.requirement] > RANK[acc] ? r.requirement : acc), 'none');
}

/** Whether the account meets the requirement now (a passkey for `passkey`; a passkey or 2FA for `second_factor`). */
export async function meetsRequirement(db: Kysely<Database>, account: Account, requirement: SecondFactorRequirement, knownHasPasskey?: boolean): Promise<boolean> {
  if (requirement === 'none') return true;
  if (knownHasPasskey ?? (await hasPasskey(db, account.id))) return true;
  return requirement === 'second_factor' && isTwoFactorEnabled(account);
}

// ---------------------------------------------------------------- the service: profile, admins, setting

/** The signed-in account's passkeys (profile), an admin's view of a user's, and the requirement setting. */
export function createPasskeysService(deps: Deps) {
  const db = () => deps.db.kysely;

  async function accountOf(id: string): Promise<Account> {
    const a = await db().selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!a) throw new AppError(401, 'unauthorized');
    return a;
  }

  async function ownPasskey(accountId: string, id: string): Promise<Passkey> {
    const p = await db().selectFrom('passkeys').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!p) throw new AppError(404, 'passkey_not_found');
    return p;
  }

  async function userAccount(id: string): Promise<Account> {
    const a = await db().selectFrom('accounts').selectAll().where('id', '=', id).where('type', '=', 'user').executeTakeFirst();
    if (!a) throw new AppError(404, 'user_not_found');
    return a;
  }

  return {
    async list(accountId: string): Promise<PasskeyView[]> {
      return (await passkeysOf(db(), accountId)).map(passkeyView);
    },

    /** Creation options; the challenge is bound to the account and the session (grant) that asked. */
    async registrationOptions(accountId: string, grantId: string | null) {
      return registrationOptions(deps, await accountOf(accountId), { purpose: 'register', grantId });
    },

    async register(actor: Actor & { id: string }, grantId: string | null, name: string, credential: PasskeyCredentialJSON): Promise<PasskeyView> {
      const account = await accountOf(actor.id);
      const challenge = await takeChallenge(db(), credential, { purpose: 'register', accountId: account.id, grantId }, epochMs(deps.clock));
      return passkeyView(await finishRegistration(deps, account, credential, challenge, name, actor));
    },

    async rename(actor: Actor & { id: string }, id: string, name: string): Promise<PasskeyView> {
      const p = await ownPasskey(actor.id, id);
      await db().transaction().execute(async (trx) => {
        await trx.updateTable('passkeys').set({ name }).where('id', '=', id).execute();
        await recordAudit(trx, actor, 'passkey.renamed', 'account', actor.id, { passkey_id: id, name: p.name }, { passkey_id: id, name });
      });
      return passkeyView({ ...p, name });
    },

    async remove(actor: Actor & { id: string }, id: string): Promise<void> {
      const p = await ownPasskey(actor.id, id);
      await db().transaction().execute(async (trx) => {
        await trx.deleteFrom('passkeys').where('id', '=', id).execute();
        await recordAudit(trx, actor, 'passkey.removed', 'account', actor.id, { passkey_id: id, name: p.name }, null);
      });
    },

    async adminList(userId: string): Promise<PasskeyView[]> {
      await userAccount(userId);
      return (await passkeysOf(db(), userId)).map(passkeyView);
    },

    /** An admin removes a user's passkey (lost device, suspected clone): audited `user.passkey_removed`. */
    async adminRemove(actor: Actor, userId: string, id: string): Promise<void> {
      await userAccount(userId);
      const p = await ownPasskey(userId, id);
      await db().transaction().execute(async (trx) => {
        await trx.deleteFrom('passkeys').where('id', '=', id).execute();
        await recordAudit(trx, actor, 'user.passkey_removed', 'user', userId, { passkey_id: id, name: p.name }, null);
      });
    },

    getPolicy: (): Promise<SecondFactorPolicy> => readPolicy(db()),

    async updatePolicy(actor: Actor, policy: SecondFactorPolicy): Promise<SecondFactorPolicy> {
      const ids = [...new Set(policy.roles.map((r) => r.role_id))];
      const known = ids.length ? new Set((await db().selectFrom('roles').select('id').where('id', 'in', ids).execute()).map((r) => r.id)) : new Set<string>();
      const fields: Record<string, string[]> = {};
      policy.roles.forEach((r, i) => {
        if (!known.has(r.role_id)) fields[`roles.${i}.role_id`] = ['role_unknown'];
      });
      if (Object.keys(fields).length) throw new AppError(422, 'validation_failed', { fields });
      // one entry per role (the last wins), none for 'none'
      const byRole = new Map(policy.roles.map((r) => [r.role_id, r.requirement]));
      const next: SecondFactorPolicy = { admins: policy.admins, roles: [...byRole].filter(([, req]) => req !== 'none').map(([role_id, requirement]) => ({ role_id, requirement })) };
      const before = await readPolicy(db());
      await db().transaction().execute(async (trx) => {
        await writePolicy(trx, next, deps.clock.nowIso());
        await recordAudit(trx, actor, 'settings.second_factor', 'settings', null, before, next);
      });
      return next;
    },
  };
}
export type PasskeysService = ReturnType<typeof createPasskeysService>;
