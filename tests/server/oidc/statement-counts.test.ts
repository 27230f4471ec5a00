import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { createTestApp, DB_KINDS, type TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, signIn, startAuthorize } from '../../helpers/auth';
import type { Db } from '../../../server/db/index';

/**
 * How many database statements the hot paths run (issue 15: CPU per sign-in and per authenticated read). Every
 * statement through the app's database handle is recorded (kind, and its SQL for the failure message); the
 * numbers pin the work per request, not its time. Each security step is still asserted to run (the lockout
 * counters are taken and cleared, the grant and account are looked up for a token not in the auth cache).
 */

interface Recorded {
  kind: string;
  sql: string;
}

function recorder(): { wrap: (db: Db) => Db; log: Recorded[] } {
  const log: Recorded[] = [];
  let compile: ((node: RootOperationNode) => string) | undefined;
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      log.push({ kind: node.kind, sql: compile ? compile(node) : '' });
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  return {
    log,
    wrap(db) {
      const kysely = db.kysely.withPlugin(plugin);
      const executor = kysely.getExecutor();
      compile = (node) => executor.compileQuery(node, { queryId: 'count' } as never).sql;
      return { ...db, kysely };
    },
  };
}

const PW = 'Correct-Horse1!x';
const env = { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_AUTH_CACHE_MS: '5000' };

for (const kind of DB_KINDS) {
  describe(`statements per sign-in and per read [${kind}]`, () => {
    let t: TestApp;
    const rec = recorder();
    beforeAll(async () => {
      t = await createTestApp(kind, env, { wrapDb: rec.wrap });
    });
    afterAll(async () => {
      await t?.close();
    });

    /** Runs `fn` and returns the statements it ran. */
    const during = async (fn: () => Promise<unknown>): Promise<Recorded[]> => {
      const from = rec.log.length;
      await fn();
      return rec.log.slice(from);
    };
    const show = (list: Recorded[]) => list.map((r) => `${r.kind}: ${r.sql}`).join('\n');

    it('a password sign-in through the whole OIDC flow', async () => {
      const email = `s-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(t, { type: 'user', email, password: PW });
      // warm: the first sign-in builds the provider, loads keys and clients
      await signIn(t, { email, password: PW });
      const steps: Record<string, Recorded[]> = {};
      const start = await (async () => {
        let s: Awaited<ReturnType<typeof startAuthorize>> | undefined;
        steps.authorize = await during(async () => (s = await startAuthorize(t, { client: 'portal' })));
        return s as Awaited<ReturnType<typeof startAuthorize>>;
      })();
      let redirectTo = '';
      steps.login = await during(async () => {
        const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
        expect(res.statusCode).toBe(200);
        redirectTo = res.json<{ data: { redirect_to: string } }>().data.redirect_to;
      });
      let code = '';
      steps.resume = await during(async () => {
        code = (await followToCode(t, start, redirectTo)).code ?? '';
      });
      expect(code).not.toBe('');
      steps.token = await during(async () => {
        const tokens = await exchangeCode(t, start, code);
        expect(tokens.accessToken).toBeTruthy();
      });
      const all = Object.values(steps).flat();
      const text = Object.entries(steps).map(([k, v]) => `-- ${k} (${v.length})\n${show(v)}`).join('\n');
      // the lockout counters are still taken (before the password is checked, all three keys in one statement)
      // and settled after the success (account-like keys cleared in one statement, the ip slot given back)
      const login = steps.login ?? [];
      const takes = login.filter((r) => /insert into "?rate_counters"?/i.test(r.sql));
      expect(takes.length, text).toBe(1);
      expect(login.filter((r) => /delete from "?rate_counters"?/i.test(r.sql)).length, text).toBe(1);
      expect(login.filter((r) => /update "?rate_counters"?/i.test(r.sql)).length, text).toBe(1);
      // the account is read once per request that needs it: by e-mail at login, by id at resume and at the token
      const accountReads = (list: Recorded[] = []) => list.filter((r) => r.kind === 'SelectQueryNode' && /from "accounts"/i.test(r.sql)).length;
      expect([accountReads(steps.authorize), accountReads(steps.login), accountReads(steps.resume), accountReads(steps.token)], text).toEqual([0, 1, 1, 1]);
      // 24 before issue 15's CPU work (3 lockout upserts, 2 deletes and an update; the account read twice at resume)
      expect(login.length, text).toBe(6);
      // 20 before issue 33: the resume records the session (account_sessions) and the device (account_devices, one
      // upsert), and, the browser being new to the account (another jar than the warm-up's), looks for another device
      const sessionRecords = (steps.resume ?? []).filter((r) => /"account_(sessions|devices)"/.test(r.sql));
      expect(sessionRecords.length, text).toBe(3);
      expect(all.length, text).toBe(23);
    });

    it('a read with a bearer the auth cache holds runs no statement; one not held runs one', async () => {
      const email = `r-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(t, { type: 'user', email, password: PW });
      const tokens = await signIn(t, { email, password: PW });
      const cache = t.app.oidc.authCache;
      // the cache's clock stands still: the entry cannot age out between the reads (no timing in the test)
      const now = Date.now();
      cache.clock = () => now;
      cache.flush();
      const read = () => t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } });
      const first = await during(async () => expect((await read()).statusCode).toBe(200));
      // the grant and the account, in one statement
      expect(first.length, show(first)).toBe(1);
      const cached = await during(async () => {
        for (let i = 0; i < 3; i++) expect((await read()).statusCode).toBe(200);
      });
      expect(cached.length, show(cached)).toBe(0);
      cache.clock = Date.now;
    });
  });
}
