import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { exportJWK, SignJWT } from 'jose';
import { DB_KINDS } from '../../helpers/app';
import { createAccount, followToCode, signIn, startAuthorize } from '../../helpers/auth';
import { nextRemoteFlush, startCluster, untilSubscribed, type Cluster, type ClusterNode } from '../../helpers/cluster';
import { seedServiceApp, serviceAppTokens } from '../../helpers/service-app';

/**
 * Revocation (RFC 7009) and DPoP replays (RFC 9449) across instances (issue 31 points 3 and 4): two real instances on
 * one database, without and with Redis. openid-client talks to the public issuer (APP_URL); its requests are sent to
 * the instance the test picks (customFetch), as a load balancer would.
 * - A token revoked on A is inactive at introspection and refused at UserInfo on B at once (both read the database).
 * - On the REST API, B may answer a token it had cached until its entry is IAM_AUTH_CACHE_MS old (B's cache clock is
 *   driven by hand, no sleeps); with Redis, as soon as A's invalidation message arrives.
 * - A DPoP proof accepted by A is refused by B (the replay store is shared: the database, or Redis); at the token
 *   endpoint (oidc-provider's ReplayDetection, claimed atomically by server/oidc/adapter.ts) one proof sent to both at
 *   once gets one token.
 */

const PW = 'Correct-Horse1!x';
const env = { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_AUTH_CACHE_MS: '1000' };
const mail = (p: string) => `${p}-${randomBytes(4).toString('hex')}@example.com`;


for (const kind of DB_KINDS) {
  for (const redis of [false, 'own'] as const) {
    describe(`revocation and DPoP replays across two instances [${kind}, ${redis ? 'Redis' : 'no Redis'}]`, () => {
      let cluster: Cluster;
      let a: ClusterNode;
      let b: ClusterNode;
      /** where openid-client's next requests go */
      let target: ClusterNode;
      const issuer = () => cluster.config.issuer;
      const options = () => ({
        execute: [client.allowInsecureRequests],
        [client.customFetch]: (url: string, init: client.CustomFetchOptions) => fetch(url.replace(cluster.config.appUrl, target.url), init as RequestInit),
      });

      beforeAll(async () => {
        cluster = await startCluster({ size: 2, kind, redis, env });
        [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
        target = a;
        if (redis) {
          // both subscribed before the tests rely on the messages (retried until the subscriptions are up)
          await untilSubscribed(a, b);
        }
      }, 120_000);
      afterAll(async () => {
        await cluster?.close();
      });

      it('an access token revoked on A (openid-client) is inactive at introspection and refused at UserInfo on B at once', async () => {
        const email = mail('mi-rv');
        const acct = await createAccount(a, { type: 'user', email, password: PW });
        const sa = await seedServiceApp(a, { members: [acct.id], clientType: 'confidential' });
        const tokens = await serviceAppTokens(a, sa, email, PW, 'openid email');
        const config = await client.discovery(new URL(issuer()), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), options());
        const userinfoOnB = () => fetch(`${b.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
        target = b;
        expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true });
        expect((await userinfoOnB()).status).toBe(200);
        target = a;
        await client.tokenRevocation(config, tokens.access_token);
        target = b;
        expect(await client.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
        expect((await userinfoOnB()).status).toBe(401);
      });

      it('on the REST API: refused on A at once; on B once its cached check is IAM_AUTH_CACHE_MS old, or when the Redis message arrives', async () => {
        const email = mail('mi-api');
        await createAccount(a, { type: 'user', email, password: PW });
        const tokens = await signIn(a, { email, password: PW });
        const read = (node: ClusterNode) => node.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } });
        const ttl = b.app.oidc.authCache.ttlMs;
        expect(ttl).toBe(1000);
        let now = Date.now();
        b.app.oidc.authCache.clock = () => now;
        try {
          expect((await read(b)).statusCode).toBe(200); // in B's cache now
          expect((await read(a)).statusCode).toBe(200);
          const portal = await client.discovery(new URL(issuer()), 'portal', undefined, client.None(), options());
          const flushed = redis ? nextRemoteFlush(b) : undefined;
          target = a;
          await client.tokenRevocation(portal, tokens.accessToken);
          expect((await read(a)).statusCode).toBe(401);
          if (flushed) {
            // B's clock stands still: only the message can end the entry
            await flushed;
            expect((await read(b)).statusCode).toBe(401);
          } else {
            // within the bound B may still answer from its cache (the bound the TTL sets)...
            expect((await read(b)).statusCode).toBe(200);
            now += ttl - 1;
            expect((await read(b)).statusCode).toBe(200);
            // ...never once the entry is IAM_AUTH_CACHE_MS old
            now += 1;
            expect((await read(b)).statusCode).toBe(401);
          }
          // writes never use the cache
          expect((await b.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: tokens.authorization } })).statusCode).toBe(401);
        } finally {
          b.app.oidc.authCache.clock = Date.now;
        }
      });

      it('a DPoP proof accepted by A is refused by B (one replay store for every instance)', async () => {
        const email = mail('mi-dpop');
        await createAccount(a, { type: 'user', email, password: PW });
        // the code through A's endpoints, then openid-client's token request with a DPoP proof (htu = the public issuer)
        const start = await startAuthorize(a, { client: 'portal', scope: 'openid profile' });
        const login = await a.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
        const { location } = await followToCode(a, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
        const portal = await client.discovery(new URL(issuer()), 'portal', undefined, client.None(), options());
        const keys = await client.randomDPoPKeyPair();
        target = a;
        const tokens = await client.authorizationCodeGrant(portal, new URL(location), { pkceCodeVerifier: start.verifier, expectedState: start.state }, undefined, { DPoP: client.getDPoPHandle(portal, keys) });
        expect(tokens.token_type).toBe('dpop');
        const jwk = await exportJWK(keys.publicKey);
        for (const path of ['/api/user', '/oidc/me']) {
          const proof = await new SignJWT({ htm: 'GET', htu: `${cluster.config.appUrl}${path}`, jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ath: createHash('sha256').update(tokens.access_token).digest('base64url') })
            .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
            .sign(keys.privateKey);
          const send = (node: ClusterNode) => fetch(`${node.url}${path}`, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: proof } });
          expect((await send(a)).status, path).toBe(200);
          const replay = await send(b);
          expect(replay.status, path).toBe(401);
          expect(replay.headers.get('www-authenticate'), path).toContain('error="invalid_dpop_proof"');
        }
      });

      it('the token endpoint: one DPoP proof sent to A and B at the same moment (5 times each) gets one token', async () => {
        const cc = await seedServiceApp(a, { clientType: 'confidential', extra: { client_credentials: 1 } });
        const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
        const htu = `${cluster.config.appUrl}/oidc/token`;
        const proof = await new SignJWT({ htm: 'POST', htu, jti: randomUUID(), iat: Math.floor(Date.now() / 1000) })
          .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(keys.publicKey) })
          .sign(keys.privateKey);
        const basic = `Basic ${Buffer.from(`${encodeURIComponent(cc.name)}:${encodeURIComponent(String(cc.secret))}`).toString('base64')}`;
        const send = (node: ClusterNode) =>
          fetch(`${node.url}/oidc/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', dpop: proof }, body: 'grant_type=client_credentials' });
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? b : a)));
        expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
      });
    });
  }
}
