import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { AsymmetricSigningAlgorithm } from 'oidc-provider';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import type { Database } from '../db/schema';
import { closeRedis, createRedis } from '../lib/redis';
import type { ServiceHost } from '../services/deps';
import type { Credentials } from '../plugins/app/auth';

/**
 * DPoP (RFC 9449) at the product's resource endpoints: UserInfo (`/oidc/me`) and the REST API (`/api`).
 *
 * The provider's token endpoint binds an access token to the client's key when the client sends a DPoP proof
 * (`token_type: DPoP`, the JWT's `cnf.jkt` = the key's SHA-256 thumbprint). Such a token is accepted only as
 * `Authorization: DPoP <token>` with a `DPoP` header holding a valid proof for this request; presented as Bearer it is
 * refused, so a stolen token is useless without the key. A token that is not bound is refused with the DPoP scheme.
 *
 * A proof (`checkSenderConstraint`) is one compact JWS with `typ: dpop+jwt`, an algorithm of DPOP_ALGS and the public
 * key in its `jwk` header, signed by that key, whose claims say: `htm` = the request's method, `htu` = the request's
 * public URL (APP_URL + path; query and fragment ignored), `iat` within DPOP_IAT_WINDOW_SECONDS of now (either way),
 * `ath` = base64url(SHA-256(access token)), and a `jti` not seen before: each proof is accepted once, on any instance
 * (the replay store: Redis with REDIS_URL, else the `dpop_proofs` table), remembered while its `iat` keeps it
 * acceptable. The key's thumbprint must be the token's `cnf.jkt`.
 *
 * Nonces (`DPoP-Nonce`) are not used: the token endpoint issues none (oidc-provider without `nonceSecret`), and the
 * resource endpoints do not require them; the iat window and the shared jti store bound replays instead. A `nonce`
 * claim in a proof is not evaluated.
 *
 * Refusals are 401 with a `WWW-Authenticate: DPoP` challenge naming the algorithms (`dpopChallenge`): `invalid_token`
 * for the scheme/binding mismatches, `invalid_dpop_proof` for the proof itself.
 */

/** The proof algorithms accepted, at the token endpoint (provider.ts, discovery) and at the resource endpoints. */
export const DPOP_ALGS: AsymmetricSigningAlgorithm[] = ['ES256', 'Ed25519', 'EdDSA'];
/** How far a proof's `iat` may be from now, either way, in seconds (oidc-provider's window at the token endpoint). */
export const DPOP_IAT_WINDOW_SECONDS = 300;
/** A proof longer than this is refused before any parsing. */
const MAX_PROOF_LENGTH = 4096;

/** A refused sender constraint: the OAuth error (RFC 6750 / RFC 9449) and an English description. */
export class SenderConstraintError extends Error {
  constructor(
    readonly error: 'invalid_token' | 'invalid_dpop_proof',
    readonly description: string,
  ) {
    super(description);
    this.name = 'SenderConstraintError';
  }
}

/** The `WWW-Authenticate` challenge of the DPoP scheme, with the error when there is one. */
export function dpopChallenge(realm: string, err?: { error: string; description: string }): string {
  const params = [`realm="${realm}"`, `algs="${DPOP_ALGS.join(' ')}"`];
  if (err) params.push(`error="${err.error}"`, `error_description="${err.description.replace(/["\\]/g, '')}"`);
  return `DPoP ${params.join(', ')}`;
}

/** What one request presents and what the token it presents is bound to. */
export interface SenderConstraintInput {
  credentials: Credentials;
  /** the access token's `cnf.jkt` (undefined: not bound) */
  jkt: string | undefined;
  /** the request's `DPoP` header as Node parsed it (several headers arrive joined with ", ") */
  proof: string | string[] | undefined;
  method: string;
  /** the public URL the request was sent to (APP_URL-based); its query is ignored */
  url: string;
}

/** The `cnf.jkt` of an access token's claims, if it is DPoP-bound. */
export function boundThumbprint(claims: JWTPayload): string | undefined {
  const jkt = (claims.cnf as { jkt?: unknown } | undefined)?.jkt;
  return typeof jkt === 'string' && jkt !== '' ? jkt : undefined;
}

/** Remembers each proof once: true the first time a key is seen (until `expiresAt`, epoch seconds), false after. */
export interface ProofReplayStore {
  firstUse(key: string, expiresAt: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The replay store in the database (`dpop_proofs`): one atomic statement; a row past its expiry counts as unseen. */
export function databaseReplayStore(db: Kysely<Database>, now: () => number = () => Math.floor(Date.now() / 1000)): ProofReplayStore {
  return {
    async firstUse(key, expiresAt) {
      const res = await db
        .insertInto('dpop_proofs')
        .values({ id: key, expires_at: expiresAt })
        .onConflict((oc) => oc.column('id').doUpdateSet({ expires_at: expiresAt }).where('dpop_proofs.expires_at', '<=', now()))
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    close: async () => undefined,
  };
}

/**
 * The replay store in Redis (`<IAM_REDIS_PREFIX>dpop:<key>`, SET NX with the expiry), shared by every instance. Its
 * connection is opened at the first proof. While Redis is unreachable the check fails (503 with Retry-After, as for
 * everything else that needs Redis): a proof is never accepted unchecked.
 */
export function redisReplayStore(deps: Pick<ServiceHost, 'config' | 'log'>, url: string): ProofReplayStore {
  let client: Redis | undefined;
  const prefix = `${deps.config.redisKeyPrefix ?? 'iam:'}dpop:`;
  return {
    async firstUse(key, expiresAt) {
      client ??= createRedis(url, 'dpop', { log: deps.log, timeoutMs: deps.config.timeouts.redisMs });
      return (await client.set(`${prefix}${key}`, '1', 'EXAT', expiresAt, 'NX')) === 'OK';
    },
    async close() {
      if (client) await closeRedis(client);
    },
  };
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url');

/** The URL without query and fragment, normalized; null when it is not an absolute URL. */
function targetOf(url: string): string | null {
  const u = URL.parse(url);
  if (!u) return null;
  u.search = '';
  u.hash = '';
  return u.href;
}

export interface DpopVerifier {
  /** Throws SenderConstraintError when the request may not use the token this way (see the module comment). */
  checkSenderConstraint(input: SenderConstraintInput): Promise<void>;
  close(): Promise<void>;
}

export function createDpopVerifier(store: ProofReplayStore): DpopVerifier {
  return {
    async checkSenderConstraint({ credentials, jkt, proof, method, url }) {
      if (credentials.scheme === 'Bearer') {
        if (jkt) throw new SenderConstraintError('invalid_token', 'the access token is DPoP-bound: use the DPoP authorization scheme with a DPoP proof');
        return;
      }
      if (!jkt) throw new SenderConstraintError('invalid_token', 'the access token is not DPoP-bound: use the Bearer authorization scheme');
      if (typeof proof !== 'string' || proof === '' || proof.includes(',')) throw new SenderConstraintError('invalid_dpop_proof', 'exactly one DPoP proof is required');
      if (proof.length > MAX_PROOF_LENGTH) throw new SenderConstraintError('invalid_dpop_proof', 'invalid DPoP proof');
      let payload: Record<string, unknown>;
      let jwk: JWK | undefined;
      try {
        const verified = await jwtVerify(proof, EmbeddedJWK, { algorithms: DPOP_ALGS, typ: 'dpop+jwt' });
        payload = verified.payload;
        jwk = verified.protectedHeader.jwk;
      } catch {
        throw new SenderConstraintError('invalid_dpop_proof', 'invalid DPoP proof');
      }
      const { jti, htm, htu, iat, ath } = payload;
      if (typeof jti !== 'string' || jti === '' || jti.length > 256) throw new SenderConstraintError('invalid_dpop_proof', 'the DPoP proof needs a jti');
      if (htm !== method) throw new SenderConstraintError('invalid_dpop_proof', 'DPoP proof htm mismatch');
      const expected = targetOf(url);
      if (typeof htu !== 'string' || expected === null || targetOf(htu) !== expected) throw new SenderConstraintError('invalid_dpop_proof', 'DPoP proof htu mismatch');
      const now = Math.floor(Date.now() / 1000);
      if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(now - iat) > DPOP_IAT_WINDOW_SECONDS) throw new SenderConstraintError('invalid_dpop_proof', 'DPoP proof iat is not recent enough');
      if (ath !== sha256(credentials.token)) throw new SenderConstraintError('invalid_dpop_proof', 'DPoP proof ath mismatch');
      if (!jwk || (await calculateJwkThumbprint(jwk, 'sha256')) !== jkt) throw new SenderConstraintError('invalid_token', 'the DPoP proof is signed by another key than the access token is bound to');
      // last, so a refused proof spends nothing; remembered as long as its iat keeps it acceptable
      if (!(await store.firstUse(sha256(`${jkt}:${jti}`), Math.floor(iat) + DPOP_IAT_WINDOW_SECONDS + 1))) {
        throw new SenderConstraintError('invalid_dpop_proof', 'DPoP proof replayed');
      }
    },
    close: () => store.close(),
  };
}

/** Deletes remembered proofs that can no longer be accepted anyway. Returns the number deleted. */
export async function cleanupDpopProofs(db: Kysely<Database>, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const res = await db.deleteFrom('dpop_proofs').where('expires_at', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
