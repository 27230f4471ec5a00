import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { calculateJwkThumbprint, decodeJwt, exportJWK, SignJWT } from 'jose';
import { createTestApp, describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, followToCode, signIn, startAuthorize } from '../../helpers/auth';
import { createRedisServer, type OwnRedis } from '../../helpers/faults';
import { freePort } from '../../helpers/http';
import { authorizeInBrowser, seedServiceApp } from '../../helpers/service-app';
import { cleanupDpopProofs, databaseReplayStore, DPOP_IAT_WINDOW_SECONDS } from '../../../server/oidc/dpop';

/**
 * DPoP (RFC 9449, issue 31 point 4; server/oidc/dpop.ts). The token endpoint binds a token to the client's key
 * (token_type DPoP, cnf.jkt); UserInfo and the REST API accept it only as `Authorization: DPoP` with a valid proof for
 * the request, never as a Bearer token; introspection reports the binding. openid-client 6 with a DPoP handle drives
 * the flows; the proof rules are checked one by one with proofs made here (jose), each beside a valid control.
 * Replays across instances: tests/server/multi-instance/token-revocation.test.ts.
 */

const PW = 'Correct-Horse1!x';
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const insecure = { execute: [client.allowInsecureRequests] };
const mail = (p: string) => `${p}-${randomBytes(4).toString('hex')}@example.com`;
const ALGS = 'algs="ES256 Ed25519 EdDSA"';

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');
const epoch = () => Math.floor(Date.now() / 1000);

/** A DPoP proof signed with `keys`; every claim can be changed or left out (null). */
async function proof(keys: CryptoKeyPair, claims: { htm: string; htu: string; token: string } & Partial<Record<'jti' | 'iat' | 'ath', string | number | null>>, header: { typ?: string } = {}): Promise<string> {
  const { htm, htu, token, ...rest } = claims;
  const payload: Record<string, unknown> = { htm, htu, jti: randomUUID(), iat: epoch(), ath: ath(token), ...rest };
  for (const k of Object.keys(payload)) if (payload[k] === null) delete payload[k];
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: header.typ ?? 'dpop+jwt', jwk: await exportJWK(keys.publicKey) }).sign(keys.privateKey);
}

/** A request with `Authorization: <scheme> <token>` and the given DPoP header value(s). */
function call(url: string, token: string, o: { scheme?: 'DPoP' | 'Bearer'; proofs?: string[]; method?: string } = {}) {
  const headers = new Headers({ authorization: `${o.scheme ?? 'DPoP'} ${token}` });
  for (const p of o.proofs ?? []) headers.append('dpop', p);
  return fetch(url, { method: o.method ?? 'GET', headers });
}

/** The OAuth / product error code of a refusal. */
async function codeOf(res: Response): Promise<string> {
  const body = (await res.json()) as { error: string | { code: string } };
  return typeof body.error === 'string' ? body.error : body.error.code;
}

describeEachDb(
  'DPoP-bound access tokens (RFC 9449)',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    /** A token of `clientId` bound to a new key, from a full code flow by openid-client with its DPoP handle. */
    async function boundTokens(config: client.Configuration, redirectUri: string, email: string, scope: string) {
      const keys = await client.randomDPoPKeyPair();
      const dpop = client.getDPoPHandle(config, keys);
      const { callback, verifier, state } = await authorizeInBrowser({ appUrl, config, redirectUri, email, password: PW, params: { scope } });
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP: dpop });
      return { keys, dpop, tokens };
    }

    it('openid-client: a confidential app gets a bound token, UserInfo answers with the proof, refuses it as Bearer; introspection says DPoP and cnf', async () => {
      const t = get();
      const email = mail('dp');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), insecure);
      expect(config.serverMetadata().dpop_signing_alg_values_supported).toEqual(['ES256', 'Ed25519', 'EdDSA']);
      const { keys, dpop, tokens } = await boundTokens(config, sa.redirectUri, email, 'openid email');
      expect(tokens.token_type).toBe('dpop');
      const jkt = await calculateJwkThumbprint(await exportJWK(keys.publicKey));
      expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt });

      // each call signs a new proof: twice, both accepted
      expect(await client.fetchUserInfo(config, tokens.access_token, acct.id, { DPoP: dpop })).toMatchObject({ sub: acct.id, email });
      expect(await client.fetchUserInfo(config, tokens.access_token, acct.id, { DPoP: dpop })).toMatchObject({ sub: acct.id });
      const post = await call(`${appUrl}/oidc/me`, tokens.access_token, { method: 'POST', proofs: [await proof(keys, { htm: 'POST', htu: `${appUrl}/oidc/me`, token: tokens.access_token })] });
      expect(post.status).toBe(200);

      // the stolen token alone, as Bearer: refused, with the DPoP challenge saying why
      const bearer = await call(`${appUrl}/oidc/me`, tokens.access_token, { scheme: 'Bearer' });
      expect(bearer.status).toBe(401);
      expect(await bearer.json()).toMatchObject({ error: 'invalid_token' });
      expect(bearer.headers.get('www-authenticate')).toContain(`DPoP realm="${appUrl}/oidc", ${ALGS}, error="invalid_token"`);
      await expect(client.fetchUserInfo(config, tokens.access_token, acct.id)).rejects.toThrow();

      expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt } });
    });

    it('openid-client on the REST API: the portal token with DPoP reads and writes; as Bearer it is refused; a refresh keeps the binding', async () => {
      const t = get();
      const email = mail('dp-api');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), 'portal', undefined, client.None(), insecure);
      const { keys, dpop, tokens } = await boundTokens(config, `${appUrl}/login`, email, 'openid profile email');
      const user = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${appUrl}/api/user?with=subscriptions`), 'GET', undefined, undefined, { DPoP: dpop });
      expect(user.status).toBe(200);
      expect(((await user.json()) as { data: { auth_user: { id: string } } }).data.auth_user.id).toBe(acct.id);

      const bearer = await call(`${appUrl}/api/user`, tokens.access_token, { scheme: 'Bearer' });
      expect(bearer.status).toBe(401);
      expect(await codeOf(bearer)).toBe('invalid_token');
      expect(bearer.headers.get('www-authenticate')).toContain(`${ALGS}, error="invalid_token"`);
      // the auth cache holds the token now: the Bearer is still refused from it
      expect((await call(`${appUrl}/api/user`, tokens.access_token, { scheme: 'Bearer' })).status).toBe(401);

      // the public client's refresh token is bound too: without the key it is refused (and stays usable)
      await expect(client.refreshTokenGrant(config, String(tokens.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
      const refreshed = await client.refreshTokenGrant(config, String(tokens.refresh_token), undefined, { DPoP: dpop });
      expect(decodeJwt(refreshed.access_token).cnf).toEqual({ jkt: await calculateJwkThumbprint(await exportJWK(keys.publicKey)) });
      const logout = await client.fetchProtectedResource(config, refreshed.access_token, new URL(`${appUrl}/api/logout`), 'POST', undefined, undefined, { DPoP: dpop });
      expect(logout.status).toBe(200);
    });

    it('proof rules, at UserInfo and the REST API: each broken proof is refused beside a valid one', async () => {
      const t = get();
      const email = mail('dp-rules');
      await createAccount(t, { type: 'user', email, password: PW });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), 'portal', undefined, client.None(), insecure);
      const { keys, tokens } = await boundTokens(config, `${appUrl}/login`, email, 'openid profile');
      const token = tokens.access_token;
      const other = await client.randomDPoPKeyPair();
      const unbound = await signIn(t, { email, password: PW });

      for (const url of [`${appUrl}/oidc/me`, `${appUrl}/api/user`]) {
        const htu = url;
        const valid = () => proof(keys, { htm: 'GET', htu, token });
        /** Refused with `code`; the challenge's description names the rule (the API's body has a localized message). */
        const refused = async (res: Response, code: string, what: string, description?: string) => {
          expect(res.status, `${url}: ${what}`).toBe(401);
          expect(await codeOf(res), `${url}: ${what}`).toBe(code);
          expect(res.headers.get('www-authenticate'), `${url}: ${what}`).toContain(`${ALGS}, error="${code}"${description ? `, error_description="${description}"` : ''}`);
        };
        expect((await call(url, token, { proofs: [await valid()] })).status, url).toBe(200);
        // the query is not part of htu
        expect((await call(`${url}?x=1`, token, { proofs: [await valid()] })).status, url).toBe(200);

        const once = await valid();
        expect((await call(url, token, { proofs: [once] })).status).toBe(200);
        await refused(await call(url, token, { proofs: [once] }), 'invalid_dpop_proof', 'a replayed proof');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu: url.endsWith('/me') ? `${appUrl}/api/user` : `${appUrl}/oidc/me`, token })] }), 'invalid_dpop_proof', 'the htu of another endpoint');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu: url.replace(appUrl, 'https://elsewhere.example'), token })] }), 'invalid_dpop_proof', 'the htu of another origin');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'POST', htu, token })] }), 'invalid_dpop_proof', 'the htm of another method');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu, token, ath: ath(unbound.accessToken) })] }), 'invalid_dpop_proof', 'the ath of another token');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu, token, ath: null })] }), 'invalid_dpop_proof', 'no ath');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu, token, iat: epoch() - DPOP_IAT_WINDOW_SECONDS - 60 })] }), 'invalid_dpop_proof', 'an old iat');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu, token, iat: epoch() + DPOP_IAT_WINDOW_SECONDS + 60 })] }), 'invalid_dpop_proof', 'an iat in the future');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu, token, jti: null })] }), 'invalid_dpop_proof', 'no jti');
        await refused(await call(url, token, { proofs: [await proof(keys, { htm: 'GET', htu, token }, { typ: 'JWT' })] }), 'invalid_dpop_proof', 'another typ');
        await refused(await call(url, token, { proofs: [] }), 'invalid_dpop_proof', 'no proof', 'exactly one DPoP proof is required');
        await refused(await call(url, token, { proofs: [await valid(), await valid()] }), 'invalid_dpop_proof', 'two proofs', 'exactly one DPoP proof is required');
        await refused(await call(url, token, { proofs: [await proof(other, { htm: 'GET', htu, token })] }), 'invalid_token', 'a proof by another key');
        // a token that is not bound is not accepted with the DPoP scheme (nor a bound one with Bearer, above)
        await refused(await call(url, unbound.accessToken, { proofs: [await proof(keys, { htm: 'GET', htu, token: unbound.accessToken })] }), 'invalid_token', 'an unbound token as DPoP');
        // and after all that, the token still works with a valid proof
        expect((await call(url, token, { proofs: [await valid()] })).status, url).toBe(200);
      }
    });

    it('an API key is never accepted with the DPoP scheme', async () => {
      const t = get();
      const adminEmail = mail('dp-admin');
      await createAccount(t, { type: 'admin', email: adminEmail, password: PW, admin_role: 'manager' });
      const admin = await signIn(t, { email: adminEmail, password: PW, client: 'admin-console' });
      const tech = await createAccount(t, { type: 'user', email: mail('dp-tech'), technical: 1, password: PW });
      const gen = await t.app.inject({ method: 'POST', url: `/api/admin/users/${tech.id}/token-generate`, headers: { authorization: admin.authorization } });
      expect(gen.statusCode, gen.body).toBe(200);
      const key = gen.json<{ data: { api_key: string } }>().data.api_key;
      // GET /api/user is the route API keys are for
      const url = `${appUrl}/api/user`;
      expect((await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const keys = await client.randomDPoPKeyPair();
      const asDpop = await call(url, key, { proofs: [await proof(keys, { htm: 'GET', htu: url, token: key })] });
      expect(asDpop.status).toBe(401);
      expect(await codeOf(asDpop)).toBe('invalid_token');
    });

    it('the token endpoint accepts a DPoP proof once: the same proof sent 6 times at the same moment gets one token', async () => {
      const t = get();
      const cc = await seedServiceApp(t, { clientType: 'confidential', extra: { client_credentials: 1 } });
      const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
      const htu = `${appUrl}/oidc/token`;
      const oneProof = await proof(keys, { htm: 'POST', htu, token: '', ath: null });
      const basic = `Basic ${Buffer.from(`${encodeURIComponent(cc.name)}:${encodeURIComponent(String(cc.secret))}`).toString('base64')}`;
      const send = () =>
        fetch(htu, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', dpop: oneProof }, body: 'grant_type=client_credentials' });
      const answers = await Promise.all(Array.from({ length: 6 }, send));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 400, 400, 400, 400, 400]);
      const refusals = await Promise.all(answers.filter((r) => r.status === 400).map(async (r) => ((await r.json()) as { error: string; error_description: string })));
      // oidc-provider refuses a replayed proof at the token endpoint as invalid_grant (its detail, not sent: "DPoP proof JWT Replay detected")
      for (const r of refusals) expect(r).toEqual({ error: 'invalid_grant', error_description: 'grant request is invalid' });
      // later, once more: still refused
      expect((await send()).status).toBe(400);
    });

    it('the replay store in the database: a key is accepted once until it expires, then the cleanup drops it', async () => {
      const t = get();
      let now = epoch();
      const store = databaseReplayStore(t.db.kysely, () => now);
      const key = `k-${randomUUID()}`;
      expect(await store.firstUse(key, now + 10)).toBe(true);
      expect(await store.firstUse(key, now + 10)).toBe(false);
      // two at once: exactly one wins
      expect((await Promise.all([store.firstUse(`${key}-p`, now + 10), store.firstUse(`${key}-p`, now + 10)])).sort()).toEqual([false, true]);
      now += 11; // past its expiry: a row the cleanup has not removed yet counts as unseen
      expect(await store.firstUse(key, now + 10)).toBe(true);
      expect(await store.firstUse(key, now + 10)).toBe(false);
      expect(await cleanupDpopProofs(t.db.kysely, now + 11)).toBeGreaterThanOrEqual(2);
      expect(await t.db.kysely.selectFrom('dpop_proofs').select('id').where('id', 'like', `${key}%`).execute()).toEqual([]);
    });
  },
  { APP_URL: appUrl, IAM_RATE_LIMIT_PER_MINUTE: '100000' },
);

describe('DPoP with REDIS_URL: the replay store is Redis; while Redis is down a proof is never accepted unchecked', () => {
  let redis: OwnRedis;
  let t: TestApp;
  beforeAll(async () => {
    redis = await createRedisServer();
    await redis.start();
    t = await createTestApp('sqlite', { REDIS_URL: redis.url, IAM_REDIS_TIMEOUT_MS: '300', IAM_RATE_LIMIT_PER_MINUTE: '100000' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('503 with Retry-After for a DPoP-bound token while Redis is away, Bearer tokens unaffected; back once Redis is', async () => {
    const email = mail('dp-redis');
    await createAccount(t, { type: 'user', email, password: PW });
    const keys = await client.randomDPoPKeyPair();
    // a bound token through the token endpoint (app.inject; htu = the public issuer)
    const start = await startAuthorize(t, { client: 'portal', scope: 'openid profile' });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
    const { code } = await followToCode(t, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
    const tokenProof = await new SignJWT({ htm: 'POST', htu: `${t.config.issuer}/token`, jti: randomUUID(), iat: epoch() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(keys.publicKey) })
      .sign(keys.privateKey);
    const res = await t.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: tokenProof },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code: String(code), redirect_uri: start.redirectUri, client_id: 'portal', code_verifier: start.verifier }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json<{ access_token: string; token_type: string }>();
    expect(token.token_type).toBe('DPoP');
    const unbound = await signIn(t, { email, password: PW });
    const read = async () => {
      const dpop = await proof(keys, { htm: 'GET', htu: `${t.config.appUrl}/api/user`, token: token.access_token });
      return t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `DPoP ${token.access_token}`, dpop } });
    };
    expect((await read()).statusCode).toBe(200);
    await redis.stop();
    const down = await read();
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBeDefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: unbound.authorization } })).statusCode).toBe(200);
    await redis.start();
    // the client reconnects by itself (backoff up to 2 s): wait for it, without a fixed sleep
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await read()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  }, 60_000);
});
