import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signIn, type Tokens } from '../../helpers/auth';
import { nextRemoteFlush, startCluster, untilSubscribed, type Cluster, type ClusterNode } from '../../helpers/cluster';

/**
 * The auth cache (server/oidc/auth-cache.ts) across instances: two real app instances on one database. A token that
 * instance B has just checked (and cached) must stop working on B, within the stated bound, after a sign-out, a
 * deactivation or a password change made on instance A:
 * - on A itself at once (its own writes flush its cache);
 * - without Redis, once B's entry is IAM_AUTH_CACHE_MS old (B's cache clock is driven by hand: frozen, then moved
 *   past the TTL — no timing in the test);
 * - with Redis, as soon as A's invalidation message reaches B, with B's clock frozen (the entry never ages out).
 * Each case fails without the invalidation it tests.
 */

const PW = 'Correct-Horse1!x';
const NEW_PW = 'Battery-Staple2!y';
const env = { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_AUTH_CACHE_MS: '1000' };

const me = (node: ClusterNode, tokens: Tokens) => node.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } });

interface Change {
  name: string;
  /** signs in on A, returns the victim's token and the change to make on A */
  prepare(a: ClusterNode): Promise<{ victim: Tokens; change(): Promise<void> }>;
}

const changes: Change[] = [
  {
    name: 'sign-out (POST /api/logout)',
    async prepare(a) {
      const email = `c-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(a, { type: 'user', email, password: PW });
      const victim = await signIn(a, { email, password: PW });
      return {
        victim,
        async change() {
          const res = await a.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: victim.authorization } });
          expect(res.statusCode).toBe(200);
        },
      };
    },
  },
  {
    name: 'deactivation by an admin',
    async prepare(a) {
      const email = `c-${randomUUID().slice(0, 8)}@example.com`;
      const user = await createAccount(a, { type: 'user', email, password: PW });
      const adminEmail = `a-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(a, { type: 'admin', email: adminEmail, password: PW });
      const admin = await signIn(a, { email: adminEmail, password: PW, client: 'admin-console' });
      const victim = await signIn(a, { email, password: PW });
      return {
        victim,
        async change() {
          const res = await a.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: { authorization: admin.authorization }, payload: { status: 'INACTIVE' } });
          expect(res.statusCode).toBe(200);
        },
      };
    },
  },
  {
    name: 'password change in another session',
    async prepare(a) {
      const email = `c-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(a, { type: 'user', email, password: PW });
      const victim = await signIn(a, { email, password: PW });
      const other = await signIn(a, { email, password: PW });
      return {
        victim,
        async change() {
          const res = await a.app.inject({
            method: 'POST',
            url: '/api/user/change-password',
            headers: { authorization: other.authorization },
            payload: { current_password: PW, password: NEW_PW, password_confirmation: NEW_PW },
          });
          expect(res.statusCode).toBe(200);
        },
      };
    },
  },
];


/** Freezes `node`'s cache clock; returns a function that moves it on by `ms`. */
function freezeClock(node: ClusterNode): (ms: number) => void {
  let now = Date.now();
  node.app.oidc.authCache.clock = () => now;
  return (ms) => {
    now += ms;
  };
}

describe('auth cache: two instances on one SQLite database, no Redis', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ size: 2, kind: 'sqlite', redis: false, env });
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  for (const c of changes) {
    it(`${c.name}: at once on the instance that made it, on the other one within IAM_AUTH_CACHE_MS`, async () => {
      const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
      const ttl = b.app.oidc.authCache.ttlMs;
      expect(ttl).toBe(1000);
      const advance = freezeClock(b);
      const { victim, change } = await c.prepare(a);
      expect((await me(b, victim)).statusCode).toBe(200); // checked on B, now in B's cache
      expect((await me(a, victim)).statusCode).toBe(200); // and in A's
      await change();
      expect((await me(a, victim)).statusCode).toBe(401);
      // within the bound B may still answer from its cache (this is what the TTL bounds)...
      expect((await me(b, victim)).statusCode).toBe(200);
      advance(ttl - 1);
      expect((await me(b, victim)).statusCode).toBe(200);
      // ...and not once the entry is IAM_AUTH_CACHE_MS old
      advance(1);
      expect((await me(b, victim)).statusCode).toBe(401);
    });
  }

  it('writes (POST, PATCH, …) never use the cache: a cached token is refused on B at once for them', async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    freezeClock(b);
    const { victim, change } = await changes[0]!.prepare(a);
    expect((await me(b, victim)).statusCode).toBe(200);
    await change();
    const res = await b.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: victim.authorization } });
    expect(res.statusCode).toBe(401);
  });
});

describe('auth cache: two instances on one SQLite database with Redis (invalidation messages)', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ size: 2, kind: 'sqlite', redis: 'own', env });
    // both subscribed: a write on one reaches the other (retried until the subscriptions are up)
    await untilSubscribed(cluster.nodes[0] as ClusterNode, cluster.nodes[1] as ClusterNode);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  for (const c of changes) {
    it(`${c.name}: the other instance drops its cached check when the message arrives (its cache clock frozen)`, async () => {
      const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
      freezeClock(b);
      const { victim, change } = await c.prepare(a);
      expect((await me(b, victim)).statusCode).toBe(200);
      const flushed = nextRemoteFlush(b);
      await change();
      expect((await me(a, victim)).statusCode).toBe(401);
      await flushed;
      expect((await me(b, victim)).statusCode).toBe(401);
    });
  }
});
