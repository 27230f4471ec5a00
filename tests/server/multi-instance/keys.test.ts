import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import type { DbKind, TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, refresh, signIn, startAuthorize, type AuthorizeStart, type Tokens } from '../../helpers/auth';
import { startCluster, type Cluster, type ClusterNode } from '../../helpers/cluster';
import { keyRing } from '../../../server/oidc/index';
import { keyPolicy, rotationMessage, scheduleRotation, withKeyLock, type KeyPolicy } from '../../../server/oidc/keys';
import { loadConfig } from '../../../server/config';
import { createDb, migrateToLatest, migrationFolder, nowIso, type Db } from '../../../server/db/index';
import { registry } from '../../../server/lib/metrics';

/**
 * Issue 9, signing keys across instances: real app instances on one database (+ a private Redis), requests spread
 * over them. The deterministic suite drives each instance's key-ring clock and refresh by hand (its poll timer is set
 * to 300 s, so it never fires during the test); the polling suite (PostgreSQL) lets the timers run.
 */

const PW = 'Correct-Horse1!x';
const KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
const newEmail = () => `k-${randomUUID().slice(0, 8)}@example.com`;

async function user(t: TestApp): Promise<string> {
  const email = newEmail();
  await createAccount(t, { type: 'user', email, password: PW });
  return email;
}

const api = (t: TestApp, authorization: string) => t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization } });

async function jwksOf(node: ClusterNode): Promise<{ body: string; kids: string[]; cacheControl: string | null }> {
  const res = await fetch(`${node.url}/oidc/jwks`);
  expect(res.status).toBe(200);
  const body = await res.text();
  return { body, kids: (JSON.parse(body) as { keys: { kid: string }[] }).keys.map((k) => k.kid), cacheControl: res.headers.get('cache-control') };
}

/** The full sign-in on one instance, keeping the browser's cookie jar (for RP-initiated logout). */
async function signInKeepingSession(t: TestApp, email: string): Promise<{ tokens: Tokens; start: AuthorizeStart }> {
  const start = await startAuthorize(t);
  const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
  expect(login.statusCode).toBe(200);
  const { code } = await followToCode(t, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
  return { tokens: await exchangeCode(t, start, code ?? ''), start };
}

function endSession(t: TestApp, start: AuthorizeStart, idTokenHint: string): Promise<LightMyRequestResponse> {
  const q = new URLSearchParams({ id_token_hint: idTokenHint, post_logout_redirect_uri: start.redirectUri, client_id: 'portal' });
  return t.app.inject({ method: 'GET', url: `/oidc/session/end?${q.toString()}`, headers: { cookie: start.jar.header() } });
}

/** A fresh database (SQLite file or PostgreSQL schema) migrated up to and including `last`. */
async function databaseAt(kind: DbKind, last: string): Promise<{ db: Db; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  let db: Db;
  let drop: () => Promise<void>;
  if (kind === 'postgres' && url) {
    const schema = `iam_m_${randomBytes(4).toString('hex')}`;
    const admin = createDb({ databaseUrl: url, poolSize: 1 });
    await admin.kysely.schema.createSchema(schema).execute();
    db = createDb({ databaseUrl: url, pgSchema: schema, poolSize: 1 });
    drop = async () => {
      await db.close();
      await admin.kysely.schema.dropSchema(schema).cascade().execute();
      await admin.close();
    };
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-mig-'));
    db = createDb({ sqliteFile: path.join(dir, 'iam.sqlite') });
    drop = async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const migrations: Record<string, Migration> = {};
  for (const file of readdirSync(migrationFolder).filter((f) => /^\d{4}_.+\.ts$/.test(f)).sort()) {
    const name = file.replace(/\.ts$/, '');
    if (name <= last) migrations[name] = (await import(path.join(migrationFolder, file))) as Migration;
  }
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations }, ...(db.schema ? { migrationTableSchema: db.schema } : {}) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { db, drop };
}

it('SQLite: the key lock takes the write lock up front (BEGIN IMMEDIATE), so it cannot run beside another writer', async () => {
  const { db, drop } = await databaseAt('sqlite', '9999');
  const file = (await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db.kysely)).rows[0]?.file ?? '';
  const other = createDb({ sqliteFile: file });
  try {
    await sql`pragma busy_timeout = 50`.execute(db.kysely);
    await sql`begin immediate`.execute(other.kysely);
    // a deferred BEGIN would start and read here; IMMEDIATE waits for the writer and gives up after busy_timeout
    await expect(withKeyLock(db, async (trx) => trx.selectFrom('signing_keys').select('kid').execute())).rejects.toThrow(/locked|busy/i);
    await sql`commit`.execute(other.kysely);
    await expect(withKeyLock(db, async (trx) => trx.selectFrom('signing_keys').select('kid').execute())).resolves.toEqual([]);
  } finally {
    await other.close();
    await drop();
  }
});

it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: the key lock is held across pools until the holder commits', async () => {
  const { db, drop } = await databaseAt('postgres', '9999');
  const second = createDb({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: db.schema, poolSize: 2 });
  let release = () => {};
  try {
    let holding = () => {};
    const held = new Promise<void>((r) => (holding = r));
    const first = withKeyLock(db, async () => {
      holding();
      await new Promise<void>((r) => (release = r));
    });
    await held;
    let entered = false;
    const waiter = withKeyLock(second, async () => {
      entered = true;
    });
    // wait until PostgreSQL reports the second one waiting on the advisory lock
    const until = Date.now() + 10_000;
    let waiting = 0;
    while (waiting === 0 && Date.now() < until) {
      waiting = Number((await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and objid = ((hashtext(${db.schema ?? ''} || '.signing_keys')::bigint & 4294967295)::oid)`.execute(second.kysely)).rows[0]?.n ?? 0);
    }
    expect(waiting).toBeGreaterThan(0);
    expect(entered).toBe(false);
    release();
    await first;
    await waiter;
    expect(entered).toBe(true);
  } finally {
    release();
    await second.close();
    await drop();
  }
});

it('keys:rotate on a fresh database: first key active, the new one next; its message names the key and time; a second run changes nothing', async () => {
  const { db, drop } = await databaseAt('sqlite', '9999');
  try {
    const policy = keyPolicy(loadConfig({}));
    const now = new Date('2026-05-01T10:00:00.000Z');
    const r = await scheduleRotation(db, policy, { now });
    const rows = await db.kysely.selectFrom('signing_keys').select(['kid', 'status', 'activates_at']).orderBy('status').execute();
    expect(rows.map((x) => [x.status, x.activates_at])).toEqual([
      ['active', now.toISOString()],
      ['next', new Date(now.getTime() + policy.prepublishSeconds * 1000).toISOString()],
    ]);
    expect(r).toMatchObject({ kid: rows[1]?.kid, activatesAt: rows[1]?.activates_at, alreadyScheduled: false });
    expect(rotationMessage(r, policy)).toContain(`Published signing key ${r.kid}. Every running instance publishes it within 30 s and signs with it from ${r.activatesAt}`);
    expect(rotationMessage(r, policy)).toContain('no restart needed');
    const again = await scheduleRotation(db, policy, { now });
    expect(rotationMessage(again, policy)).toBe(`Signing key ${r.kid} is already scheduled to become active at ${r.activatesAt}; nothing changed.`);
    expect(await db.kysely.selectFrom('signing_keys').select('kid').execute()).toHaveLength(2);
  } finally {
    await drop();
  }
});

for (const kind of KINDS) {
  it(`migration 0004 keeps the newest of several active keys (left by the old race) and demotes the others [${kind}]`, async () => {
    const { db, drop } = await databaseAt(kind, '0003_admin_search');
    try {
      for (const [kid, at] of [['a', '2026-01-01T00:00:00.000Z'], ['c', '2026-01-03T00:00:00.000Z'], ['b', '2026-01-02T00:00:00.000Z']] as const) {
        await sql`insert into signing_keys (kid, alg, private_jwk, public_jwk, status, created_at) values (${kid}, 'RS256', '{}', '{}', 'active', ${at})`.execute(db.kysely);
      }
      await migrateToLatest(db);
      const rows = await db.kysely.selectFrom('signing_keys').select(['kid', 'status', 'activates_at', 'rotated_at']).orderBy('kid').execute();
      expect(rows.map((r) => [r.kid, r.status])).toEqual([
        ['a', 'previous'],
        ['b', 'previous'],
        ['c', 'active'],
      ]);
      expect(rows.every((r) => r.activates_at !== null)).toBe(true);
      expect(rows.filter((r) => r.status === 'previous').every((r) => r.rotated_at !== null)).toBe(true);
    } finally {
      await drop();
    }
  });

  describe(`signing keys across 3 instances, clock driven by the test [${kind}]`, () => {
    let cluster: Cluster;
    let policy: KeyPolicy;
    const node = (i: number): ClusterNode => {
      const n = cluster.nodes[i];
      if (!n) throw new Error(`no node ${i}`);
      return n;
    };
    // one clock for every instance's key ring, moved forward by the test
    const base = Date.now();
    let offsetSeconds = 0;
    const clock = () => base + offsetSeconds * 1000;
    const ring = (i: number) => keyRing(node(i).app);
    const refreshAll = async () => {
      for (let i = 0; i < 3; i++) await (await ring(i)).refresh();
    };

    beforeAll(async () => {
      // started together: each instance looks for an active key at the same moment
      cluster = await startCluster({ kind, size: 3, env: { IAM_KEYS_POLL_SECONDS: '300', IAM_JWKS_MAX_AGE_SECONDS: '0' } });
      policy = keyPolicy(node(0).config);
      for (let i = 0; i < 3; i++) (await ring(i)).clock = clock;
    }, 60_000);
    afterAll(async () => {
      await cluster?.close();
    });

    it('instances started together create exactly one active key and publish the same JWKS', async () => {
      const rows = await node(0).db.kysely.selectFrom('signing_keys').select(['kid', 'status']).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe('active');
      const all = await Promise.all(cluster.nodes.map(jwksOf));
      expect(all.map((j) => j.kids)).toEqual([[rows[0]?.kid], [rows[0]?.kid], [rows[0]?.kid]]);
      expect(new Set(all.map((j) => j.body)).size).toBe(1);
      expect(all[0]?.cacheControl).toBe(`public, max-age=${policy.jwksMaxAgeSeconds}`);
      // the database refuses a second active key by itself (partial unique index)
      const other = { ...(await node(0).db.kysely.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow()), kid: randomUUID(), created_at: nowIso(), activates_at: '2999-01-01T00:00:00.000Z' };
      await expect(node(1).db.kysely.insertInto('signing_keys').values(other).execute()).rejects.toThrow();
      await expect(node(1).db.kysely.insertInto('signing_keys').values({ ...other, status: 'next' }).execute()).resolves.toBeDefined();
      await expect(node(2).db.kysely.insertInto('signing_keys').values({ ...other, kid: randomUUID(), status: 'next' }).execute()).rejects.toThrow();
      await node(0).db.kysely.deleteFrom('signing_keys').where('kid', '=', other.kid).execute();
    });

    it('sign-in spread over the instances, refresh on B, reuse of the rotated refresh token on C revokes the grant', async () => {
      const email = await user(node(0));
      const tokens = await signIn(cluster.spread, { email, password: PW });
      for (let i = 0; i < 3; i++) expect((await api(node(i), tokens.authorization)).statusCode).toBe(200);
      const onB = await refresh(node(1), tokens.refreshToken);
      expect(onB.statusCode).toBe(200);
      const rotated = onB.json<{ refresh_token: string; access_token: string }>();
      expect(rotated.refresh_token).not.toBe(tokens.refreshToken);
      const reuse = await refresh(node(2), tokens.refreshToken);
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json<{ error: string }>().error).toBe('invalid_grant');
      // the reuse revoked the whole grant: the new refresh token and every access token are dead on every instance
      expect((await refresh(node(0), rotated.refresh_token)).statusCode).toBe(400);
      for (let i = 0; i < 3; i++) expect((await api(node(i), `Bearer ${rotated.access_token}`)).statusCode).toBe(401);
    });

    it('a logout with an id_token_hint signed via A is accepted on B and confirmed on C', async () => {
      const email = await user(node(0));
      const { tokens, start } = await signInKeepingSession(node(0), email);
      const page = await endSession(node(1), start, tokens.idToken);
      expect(page.statusCode).toBe(200);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
      expect(xsrf).toBeTruthy();
      // a hint that is not ours is refused the same way on every instance
      const [h, p] = tokens.idToken.split('.');
      expect((await endSession(node(2), start, `${h}.${p}.${'A'.repeat(342)}`)).statusCode).toBe(400);
      const confirm = await node(2).app.inject({
        method: 'POST',
        url: '/oidc/session/end/confirm',
        headers: { cookie: start.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ xsrf: String(xsrf), logout: 'yes' }).toString(),
      });
      expect(confirm.statusCode).toBe(303);
      expect((await refresh(node(0), tokens.refreshToken)).statusCode).toBe(400);
    });

    it('rotation without restart: published everywhere first, each instance switches on its own refresh, old tokens verify, a retired key never signs', async () => {
      const email = await user(node(0));
      const before = await signIn(node(0), { email, password: PW });
      const k1 = String(kidOf(before.accessToken));
      const rotation = await scheduleRotation(node(0).db, policy, { now: new Date(clock()) });
      const k2 = rotation.kid;
      expect(rotation.activatesAt).toBe(new Date(clock() + policy.prepublishSeconds * 1000).toISOString());
      expect(await scheduleRotation(node(1).db, policy, { now: new Date(clock()) })).toMatchObject({ kid: k2, alreadyScheduled: true });

      // each instance publishes the next key from its next poll; nobody signs with it before activates_at
      offsetSeconds = policy.prepublishSeconds - 10;
      await refreshAll();
      const published = await Promise.all(cluster.nodes.map(jwksOf));
      expect(new Set(published.map((j) => j.body)).size).toBe(1);
      expect(published[0]?.kids).toEqual([k1, k2]);
      const metrics = await registry.metrics();
      for (const kid of [k1, k2]) expect(metrics).toContain(`iam_signing_keys_in_use{kid="${kid}"} 1`);
      for (let i = 0; i < 3; i++) {
        const t = await signIn(node(i), { email, password: PW });
        expect([kidOf(t.accessToken), kidOf(t.idToken)]).toEqual([k1, k1]);
      }

      // activates_at passed: A polls first and promotes; B and C have not polled yet and still sign with k1,
      // which stays published, while they already verify A's k2 tokens
      offsetSeconds = policy.prepublishSeconds + 1;
      await (await ring(0)).refresh();
      const states = await node(0).db.kysely.selectFrom('signing_keys').select(['kid', 'status']).orderBy('created_at').execute();
      expect(Object.fromEntries(states.map((s) => [s.kid, s.status]))).toEqual({ [k1]: 'previous', [k2]: 'active' });
      const { tokens: fromA, start: sessionA } = await signInKeepingSession(node(0), email);
      expect([kidOf(fromA.accessToken), kidOf(fromA.idToken)]).toEqual([k2, k2]);
      const fromB = await signIn(node(1), { email, password: PW });
      expect(kidOf(fromB.accessToken)).toBe(k1);
      for (let i = 0; i < 3; i++) {
        expect((await api(node(i), fromA.authorization)).statusCode).toBe(200);
        expect((await api(node(i), fromB.authorization)).statusCode).toBe(200);
      }
      expect((await endSession(node(1), sessionA, fromA.idToken)).statusCode).toBe(200);

      // B polls and switches; C stays behind (its snapshot is still fresh enough)
      offsetSeconds = policy.prepublishSeconds + 2;
      await (await ring(1)).refresh();
      expect(kidOf((await signIn(node(1), { email, password: PW })).accessToken)).toBe(k2);
      expect(kidOf((await signIn(node(2), { email, password: PW })).accessToken)).toBe(k1);
      for (let i = 0; i < 3; i++) expect((await api(node(i), before.authorization)).statusCode).toBe(200);

      // shortly before k1's retention ends B polls again (k1 still previous)
      const rotatedAt = policy.prepublishSeconds + 1;
      offsetSeconds = rotatedAt + policy.retentionSeconds - 50;
      await (await ring(1)).refresh();
      // retention passed: A's poll retires k1
      offsetSeconds = rotatedAt + policy.retentionSeconds + 1;
      await (await ring(0)).refresh();
      const k1Row = await node(0).db.kysely.selectFrom('signing_keys').selectAll().where('kid', '=', String(k1)).executeTakeFirstOrThrow();
      expect(k1Row.status).toBe('retired');
      expect(k1Row.retired_at).not.toBeNull();
      // C has not polled for longer than maxStale and last saw k1 ACTIVE: it reloads before signing, never signs with k1
      expect(clock() - (await ring(2)).loadedAt).toBeGreaterThan(policy.maxStaleSeconds * 1000);
      expect((await ring(2)).activeKid).toBe(k1);
      const fromC = await signIn(node(2), { email, password: PW });
      expect([kidOf(fromC.accessToken), kidOf(fromC.idToken)]).toEqual([k2, k2]);
      // B's snapshot (fresh) still lists k1 as previous, but a key past its retention no longer verifies anywhere
      expect((await ring(1)).keys.map((k) => [k.kid, k.status])).toEqual([[k2, 'active'], [k1, 'previous']]);
      for (let i = 0; i < 3; i++) expect((await api(node(i), before.authorization)).statusCode).toBe(401);
      await refreshAll();
      const after = await Promise.all(cluster.nodes.map(jwksOf));
      expect(new Set(after.map((j) => j.body)).size).toBe(1);
      expect(after[0]?.kids).toEqual([k2]);
      for (let i = 0; i < 3; i++) expect((await api(node(i), fromA.authorization)).statusCode).toBe(200);
    });
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('signing keys across 3 instances, real polling [postgres]', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    // poll every second; JWKS not cacheable, so the shortest allowed pre-publication is 3 polls
    cluster = await startCluster({ kind: 'postgres', size: 3, env: { IAM_KEYS_POLL_SECONDS: '1', IAM_JWKS_MAX_AGE_SECONDS: '0', IAM_KEYS_PREPUBLISH_SECONDS: '3' } });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('every instance publishes, then signs with, a rotated key without restart; old tokens keep verifying', async () => {
    const nodes = cluster.nodes;
    const first = nodes[0];
    if (!first) throw new Error('no node');
    const policy = keyPolicy(first.config);
    const email = await user(first);
    // one refresh-token chain per instance: each refresh there signs a new access token with that instance's key
    const chains = await Promise.all(nodes.map((n) => signIn(n, { email, password: PW })));
    const k1 = kidOf(chains[0]?.accessToken ?? '');
    const scheduledAt = Date.now();
    const { kid: k2, activatesAt } = await scheduleRotation(first.db, policy);
    const activation = new Date(activatesAt).getTime();
    const publishedAt: (number | undefined)[] = nodes.map(() => undefined);
    const switchedAt: (number | undefined)[] = nodes.map(() => undefined);
    const refreshTokens = chains.map((c) => c.refreshToken);
    const deadline = Date.now() + 20_000;
    while (switchedAt.some((s) => s === undefined) && Date.now() < deadline) {
      await Promise.all(
        nodes.map(async (n, i) => {
          if (publishedAt[i] === undefined && (await jwksOf(n)).kids.includes(k2)) publishedAt[i] = Date.now();
          if (switchedAt[i] !== undefined) return;
          const r = await refresh(n, refreshTokens[i] ?? '');
          expect(r.statusCode).toBe(200);
          const body = r.json<{ refresh_token: string; access_token: string }>();
          refreshTokens[i] = body.refresh_token;
          const kid = kidOf(body.access_token);
          if (kid === k2) {
            switchedAt[i] = Date.now();
            // whoever signs with k2 does so only after every instance publishes it
            for (const m of nodes) expect((await jwksOf(m)).kids).toContain(k2);
          } else {
            expect(kid).toBe(k1);
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    expect({ publishedAt, switchedAt }).toEqual({ publishedAt: nodes.map(() => expect.any(Number)), switchedAt: nodes.map(() => expect.any(Number)) });
    // tokens signed with the old key keep verifying on every instance
    for (const n of nodes) for (const c of chains) expect((await api(n, c.authorization)).statusCode).toBe(200);
    const publish = publishedAt.map((p) => ((p ?? 0) - scheduledAt) / 1000);
    const pickup = switchedAt.map((s) => ((s ?? 0) - activation) / 1000);
    console.log(
      `[keys] poll ${policy.pollSeconds}s, pre-publication ${policy.prepublishSeconds}s: published after ${publish.map((s) => s.toFixed(2)).join('/')} s; ` +
        `signing with the new key ${pickup.map((s) => s.toFixed(2)).join('/')} s after activates_at`,
    );
    const jwks = await Promise.all(nodes.map(jwksOf));
    expect(new Set(jwks.map((j) => j.body)).size).toBe(1);
    expect(jwks[0]?.kids).toEqual([k2, k1]);
  });
});
