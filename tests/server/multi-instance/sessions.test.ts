import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../helpers/app';
import { createAccount, refresh, signIn } from '../../helpers/auth';
import { nextRemoteFlush, startCluster, untilSubscribed, type Cluster, type ClusterNode } from '../../helpers/cluster';

/**
 * Ending a session from the sessions list (issue 33) across instances: two real instances on one database, without and
 * with Redis. The person ends one browser's session on A (from the other browser). On A its access token is refused
 * at once; on B a read may be answered from B's auth cache until the entry is IAM_AUTH_CACHE_MS old (B's cache clock
 * is driven by hand, no sleeps), or, with Redis, until A's invalidation message arrives; a write on B and the refresh
 * token on B fail at once (both read the database).
 */

const PW = 'Correct-Horse1!x';
const env = { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_AUTH_CACHE_MS: '1000' };


for (const kind of DB_KINDS) {
  for (const redis of [false, 'own'] as const) {
    describe(`ending a session across two instances [${kind}, ${redis ? 'Redis' : 'no Redis'}]`, () => {
      let cluster: Cluster;
      let a: ClusterNode;
      let b: ClusterNode;

      beforeAll(async () => {
        cluster = await startCluster({ size: 2, kind, redis, env });
        [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
        if (redis) {
          await untilSubscribed(a, b);
        }
      }, 120_000);
      afterAll(async () => {
        await cluster?.close();
      });

      it('the ended session’s access token: refused on A at once, on B within IAM_AUTH_CACHE_MS (or at the Redis message); its refresh token fails on B', async () => {
        const email = `mi-ses-${randomBytes(4).toString('hex')}@example.com`;
        await createAccount(a, { type: 'user', email, password: PW });
        const ended = await signIn(a, { email, password: PW });
        const kept = await signIn(b, { email, password: PW });
        const read = (node: ClusterNode) => node.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: ended.authorization } });
        const ttl = b.app.oidc.authCache.ttlMs;
        let now = Date.now();
        b.app.oidc.authCache.clock = () => now;
        try {
          expect((await read(b)).statusCode).toBe(200); // in B's cache now
          const list = await a.app.inject({ method: 'GET', url: '/api/user/sessions', headers: { authorization: kept.authorization } });
          const other = list.json<{ data: { id: string; current: boolean }[] }>().data.find((s) => !s.current);
          expect(other).toBeDefined();
          const flushed = redis ? nextRemoteFlush(b) : undefined;
          const end = await a.app.inject({ method: 'DELETE', url: `/api/user/sessions/${other!.id}`, headers: { authorization: kept.authorization } });
          expect(end.statusCode, end.body).toBe(200);
          expect((await read(a)).statusCode).toBe(401);
          // writes and the token endpoint never use a cache
          expect((await b.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: ended.authorization } })).statusCode).toBe(401);
          expect((await refresh(b, ended.refreshToken)).statusCode).toBe(400);
          if (flushed) {
            await flushed;
            expect((await read(b)).statusCode).toBe(401);
          } else {
            expect((await read(b)).statusCode).toBe(200);
            now += ttl;
            expect((await read(b)).statusCode).toBe(401);
          }
          // the session that ended it lives on, on both
          for (const node of [a, b]) expect((await node.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: kept.authorization } })).statusCode).toBe(200);
        } finally {
          b.app.oidc.authCache.clock = Date.now;
        }
      });
    });
  }
}
