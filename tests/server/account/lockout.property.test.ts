import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { TOTP } from 'otpauth';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTestApp, describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, startAuthorize } from '../../helpers/auth';
import { buildApp } from '../../../server/app';
import { createDb, type Db } from '../../../server/db/index';
import * as twoFactor from '../../../server/services/two-factor';
import { setSmsSender } from '../../../server/services/sms';

/**
 * Lockout properties (issue 9), generated with fast-check (fixed seed):
 *  - for every credential type (user password, admin password, TOTP, SMS code, recovery code) a burst of 2–64
 *    parallel attempts evaluates exactly min(n, 5) secrets when none is right, never more than the limit before a
 *    success; every refused attempt gets the same locked answer (status and body), the right secret included;
 *  - the per-IP limit likewise (many e-mails from one address);
 *  - several app instances (own buildApp, own DB pool / Redis client) sharing the database or Redis: 36 parallel
 *    attempts spread over 3 instances evaluate exactly 5.
 * Runs on SQLite, on PostgreSQL (TEST_DATABASE_URL) and with the counters in Redis (TEST_REDIS_URL, default the local
 * one, under a key prefix of its own).
 *
 * "Evaluated" = calls of the code that checks the secret, counted by call-through spies: argon2.verify for passwords
 * (real and dummy checks alike), and the two-factor module's verifyTotp / verifySmsCode / consumeRecoveryCode.
 */
const LIMIT = 5;
const IP_LIMIT = 8;
/**
 * the configuration every app of this file gets: a low per-IP limit, and a sign-in admission gate wide enough to let a
 * whole burst into the handlers at once. These properties are about races in the lockout's reservations, so the
 * attempts must really arrive together; with the default gate (1 per core, a short queue) part of a 64-burst is
 * refused with 503 or queued and arrives one by one (tests/server/plugins/app/admission.test.ts covers that gate).
 * Only the lockout's limit of secrets is ever hashed, so the wide gate runs no more argon2 at once.
 */
const ENV = { IAM_IP_MAX_FAILURES: String(IP_LIMIT), IAM_HASH_CONCURRENCY: '64' };
const PW = 'Correct-Horse-1!';
const SEED = 20261123;
const NUM_RUNS = 5;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let seq = 0;
const email = (p: string) => `${p}-${++seq}-${Date.now()}@example.test`;
/** A fresh client address per scenario: the ip counters of one run do not leak into the next. */
const freshIp = () => {
  seq++;
  return `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
};
/** The locked answer without the seconds that tick between two requests. */
const shape = (r: LightMyRequestResponse) => JSON.stringify({ status: r.statusCode, body: r.body.replace(/\d+/g, '#') });

type Kind = 'password-user' | 'password-admin' | 'totp' | 'sms' | 'recovery';
const KINDS: Kind[] = ['password-user', 'password-admin', 'totp', 'sms', 'recovery'];

const spies: Record<'argon2' | 'totp' | 'sms' | 'recovery', MockInstance> = {} as never;
const counts = () => ({
  password: spies.argon2.mock.calls.length,
  totp: spies.totp.mock.calls.length,
  sms: spies.sms.mock.calls.length,
  recovery: spies.recovery.mock.calls.length,
});
const evaluatedSince = (before: ReturnType<typeof counts>, kind: Kind) => {
  const now = counts();
  const k = kind.startsWith('password') ? 'password' : (kind as 'totp' | 'sms' | 'recovery');
  return now[k] - before[k];
};

beforeAll(() => {
  spies.argon2 = vi.spyOn(argon2, 'verify');
  spies.totp = vi.spyOn(twoFactor, 'verifyTotp');
  spies.sms = vi.spyOn(twoFactor, 'verifySmsCode');
  spies.recovery = vi.spyOn(twoFactor, 'consumeRecoveryCode');
});
afterAll(() => {
  vi.restoreAllMocks();
});

interface Scenario {
  right: string;
  wrong: (i: number) => string;
  attempt: (secret: string, target?: FastifyInstance) => Promise<LightMyRequestResponse>;
  /** the answer an evaluated wrong secret gets */
  wrongCode: string;
}

const sixDigits = (i: number, avoid: Set<string>) => {
  let v = (i * 7919 + 12345) % 1_000_000;
  while (avoid.has(String(v).padStart(6, '0'))) v = (v + 1) % 1_000_000;
  return String(v).padStart(6, '0');
};

/** A fresh account with its secret for `kind`, reached the way a client reaches it (password step first for 2FA). */
async function scenario(t: TestApp, kind: Kind, ip: string): Promise<Scenario> {
  const admin = kind === 'password-admin';
  const acc = await createAccount(t, { type: admin ? 'admin' : 'user', email: email(kind), password: PW, phone: kind === 'sms' ? `+4179${String(1_000_000 + seq).slice(-7)}` : null });
  const s = await startAuthorize(t, { client: admin ? 'admin-console' : 'portal' });
  const interaction = s.interaction ?? '';
  // the browser that started the authorization (its interaction binding cookie goes with every step)
  const inject = (target: FastifyInstance, url: string, payload: Record<string, string>) => target.inject({ method: 'POST', url, headers: { cookie: s.jar.header() }, payload, remoteAddress: ip });
  if (kind === 'password-user' || kind === 'password-admin') {
    return {
      right: PW,
      wrong: (i) => `Wrong-Horse-${i}!`,
      attempt: (password, target = t.app) => inject(target, admin ? '/api/admin/login' : '/api/login', { email: acc.email, password, interaction }),
      wrongCode: 'invalid_credentials',
    };
  }
  let right = '';
  let valid = new Set<string>();
  let recovery: string[] = [];
  if (kind === 'totp' || kind === 'recovery') {
    const { secret } = await twoFactor.createTotpSecret(t.app, acc);
    const totp = new TOTP({ secret, digits: 6, period: 30 });
    recovery = (await twoFactor.enableTotp(t.app, acc, totp.generate())) ?? [];
    const now = Date.now();
    valid = new Set([-30_000, 0, 30_000, 60_000].map((d) => totp.generate({ timestamp: now + d })));
    right = kind === 'totp' ? totp.generate({ timestamp: now + 30_000 }) : (recovery[0] ?? '');
  } else {
    await t.db.kysely.updateTable('accounts').set({ two_factor_method: 'SMS', two_factor_confirmed_at: new Date().toISOString() }).where('id', '=', acc.id).execute();
    const sent: string[] = [];
    setSmsSender(t.app, { send: async (_to, body) => void sent.push(body) });
    const login = await inject(t.app, '/api/login', { email: acc.email, password: PW, interaction });
    expect(login.json().data).toEqual({ status: 'two_factor_required', method: 'SMS' });
    right = /\b(\d{6})\b/.exec(sent.at(-1) ?? '')?.[1] ?? '';
    valid = new Set([right]);
  }
  if (kind !== 'sms') {
    const login = await inject(t.app, '/api/login', { email: acc.email, password: PW, interaction });
    expect(login.json().data.status).toBe('two_factor_required');
  }
  if (kind === 'recovery') {
    return {
      right,
      wrong: (i) => createHash('sha256').update(`wrong-${seq}-${i}`).digest('hex').slice(0, 32).replace(/^(.{8})(.{8})(.{8})(.{8})$/, '$1-$2-$3-$4'),
      attempt: (code, target = t.app) => inject(target, '/api/2fa/validate-recovery-code', { recovery_code: code, interaction }),
      wrongCode: 'recovery_code_invalid',
    };
  }
  return {
    right,
    wrong: (i) => sixDigits(i, valid),
    attempt: (code, target = t.app) => inject(target, kind === 'sms' ? '/api/2fa/sms/verify' : '/api/2fa/google/validate-otp', { one_time_password: code, interaction }),
    wrongCode: 'otp_invalid',
  };
}

const isSuccess = (r: LightMyRequestResponse) => r.statusCode === 200;
/** a 2FA attempt that arrived after the right code had finished the sign-in: refused before anything is checked */
const isFinished = (r: LightMyRequestResponse) => r.statusCode === 400 && r.json().error?.code === 'interaction_expired';

/** One burst: n parallel attempts, the right secret at `rightAt` when given. Checks every lockout property. */
async function burst(t: TestApp, kind: Kind, n: number, rightAt: number | null, targets?: FastifyInstance[]): Promise<{ evaluated: number }> {
  const sc = await scenario(t, kind, freshIp());
  const secrets = Array.from({ length: n }, (_, i) => (i === rightAt ? sc.right : sc.wrong(i)));
  const before = counts();
  const res = await Promise.all(secrets.map((secret, i) => sc.attempt(secret, targets?.[i % targets.length])));
  const evaluated = evaluatedSince(before, kind);
  const locked = res.filter((r) => r.statusCode === 429);
  const successes = res.filter(isSuccess).length;
  // every refused attempt: one and the same locked answer
  expect(new Set(locked.map(shape)).size).toBeLessThanOrEqual(1);
  for (const r of locked) expect(r.json().error.code).toBe('account_locked');
  // every other answer: evaluated (success or the wrong-secret answer), or refused because the sign-in was finished
  const answered = res.filter((r) => r.statusCode !== 429 && !isFinished(r));
  for (const r of answered) if (!isSuccess(r)) expect(r.json().error.code).toBe(sc.wrongCode);
  expect(answered.length).toBe(evaluated);
  if (successes === 0) {
    // nothing right got through: exactly the limit evaluated (or all of them when fewer)
    expect(evaluated).toBe(Math.min(n, LIMIT));
  } else {
    // a success clears the account's counter (the secret is known), so the limit holds between successes
    expect(successes).toBe(1);
    expect(evaluated).toBeLessThanOrEqual(2 * LIMIT);
  }
  if (rightAt !== null && rightAt < n) {
    const right = res[rightAt]!;
    if (!isSuccess(right)) {
      // the right secret refused: only ever with the very same locked answer, and only because the limit was used up
      expect(right.statusCode).toBe(429);
      expect(shape(right)).toBe(shape(locked[0]!));
      expect(evaluated).toBe(LIMIT);
    }
  }
  if (successes === 0 && n >= LIMIT) {
    // locked now: right and wrong get the same answer, and neither is checked
    const mark = counts();
    const after = await Promise.all([sc.right, sc.wrong(999)].map((s) => sc.attempt(s)));
    expect(evaluatedSince(mark, kind)).toBe(0);
    expect(after.map((r) => r.statusCode)).toEqual([429, 429]);
    expect(shape(after[0]!)).toBe(shape(after[1]!));
  }
  return { evaluated };
}

const burstArb = fc.record({
  n: fc.integer({ min: 2, max: 64 }),
  rightAt: fc.option(fc.integer({ min: 0, max: 63 }), { nil: null }),
});

function properties(get: () => TestApp) {
  for (const kind of KINDS) {
    it(`${kind}: 2–64 parallel attempts evaluate at most the limit; the locked answer is the same whatever the secret`, async () => {
      await fc.assert(
        fc.asyncProperty(burstArb, async ({ n, rightAt }) => {
          await burst(get(), kind, n, rightAt);
        }),
        { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
      );
    });
  }

  it(`per IP: 2–64 parallel sign-ins to different e-mails from one address evaluate at most ${IP_LIMIT}`, async () => {
    const t = get();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 64 }), async (n) => {
        const ip = freshIp();
        const s = await startAuthorize(t);
        const before = counts();
        const res = await Promise.all(
          Array.from({ length: n }, (_, i) =>
            t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: email(`ip${i}`), password: `Wrong-Horse-${i}!`, interaction: s.interaction ?? '' }, remoteAddress: ip }),
          ),
        );
        const evaluated = evaluatedSince(before, 'password-user');
        expect(evaluated).toBe(Math.min(n, IP_LIMIT));
        expect(res.filter((r) => r.statusCode === 401).length).toBe(evaluated);
        const locked = res.filter((r) => r.statusCode === 429);
        expect(locked.length).toBe(n - evaluated);
        expect(new Set(locked.map(shape)).size).toBeLessThanOrEqual(1);
        for (const r of locked) expect(r.json().error.code).toBe('too_many_requests');
      }),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
    );
  });
}

describeEachDb('lockout properties', (get) => properties(get), ENV);

/** Deletes every key under `prefix` (the test's own namespace in the shared Redis). */
async function dropRedisPrefix(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

describe('lockout properties [redis]', () => {
  const prefix = `test-lockout-${randomBytes(4).toString('hex')}:`;
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { ...ENV, REDIS_URL, IAM_REDIS_PREFIX: prefix });
  });
  afterAll(async () => {
    await t?.close();
    await dropRedisPrefix(prefix);
  });
  it('keeps the counters in Redis under its own prefix; the database holds only the durable copies of locks', async () => {
    const app = t!.app;
    await burst(t!, 'password-user', 8, null);
    // the burst locked the e-mail and account keys: their locks (only) are in the database too, so that a Redis
    // restart or FLUSHALL cannot unlock them (tests/server/ops/lockout-redis-restart.test.ts); the ip counter is not
    const rows = await t!.db.kysely.selectFrom('rate_counters').selectAll().execute();
    expect(rows.map((r) => r.key.slice(0, r.key.indexOf(':'))).sort()).toEqual(['account', 'email']);
    for (const r of rows) expect(Number(r.locked_until)).toBeGreaterThan(Date.now());
    const r = new Redis(REDIS_URL);
    try {
      expect((await r.keys(`${prefix}rc:email:user:*`)).length).toBeGreaterThan(0);
      // the global per-IP limiter counts under the prefix too: parallel test files on this Redis never share a counter
      expect((await r.keys(`${prefix}rl:*`)).length).toBeGreaterThan(0);
    } finally {
      r.disconnect();
    }
    expect(app.config.redisKeyPrefix).toBe(prefix);
  });
  properties(() => {
    if (!t) throw new Error('not ready');
    return t;
  });
});

/** More instances of the app on the same database as `primary` (own buildApp, own pool), optionally with Redis. */
async function moreInstances(primary: TestApp, count: number): Promise<{ apps: FastifyInstance[]; close: () => Promise<void> }> {
  const apps: FastifyInstance[] = [];
  const dbs: Db[] = [];
  for (let i = 0; i < count; i++) {
    const db =
      primary.kind === 'postgres'
        ? createDb({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: primary.db.schema, poolSize: 5 })
        : createDb({ sqliteFile: path.join(primary.dataDir, 'iam.sqlite') });
    dbs.push(db);
    const app = await buildApp({ config: { ...primary.config, databaseUrl: primary.kind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined }, db, logger: false, migrate: false });
    await app.ready();
    apps.push(app);
  }
  return {
    apps,
    async close() {
      for (const a of apps) await a.close();
      for (const d of dbs) await d.close();
    },
  };
}

function crossInstance(get: () => TestApp) {
  for (const kind of ['password-user', 'totp'] as const) {
    it(`${kind}: 36 parallel wrong attempts over 3 instances evaluate exactly ${LIMIT}; right and wrong then get the same locked answer`, async () => {
      const t = get();
      const more = await moreInstances(t, 2);
      try {
        const targets = [t.app, ...more.apps];
        const { evaluated } = await burst(t, kind, 36, null, targets);
        expect(evaluated).toBe(LIMIT);
        // with the right secret in the burst, sent to another instance than the first wrong ones
        await burst(t, kind, 36, 31, targets);
      } finally {
        await more.close();
      }
    });
  }
}

for (const kind of process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []) {
  describe(`lockout across instances [${kind}, counters in the database]`, () => {
    let t: TestApp | undefined;
    beforeAll(async () => {
      t = await createTestApp(kind, ENV);
    });
    afterAll(async () => {
      await t?.close();
    });
    crossInstance(() => t!);
  });
}

describe(`lockout across instances [${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'} + counters in redis]`, () => {
  const prefix = `test-lockout-x-${randomBytes(4).toString('hex')}:`;
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite', { ...ENV, REDIS_URL, IAM_REDIS_PREFIX: prefix });
  });
  afterAll(async () => {
    await t?.close();
    await dropRedisPrefix(prefix);
  });
  crossInstance(() => t!);
});
