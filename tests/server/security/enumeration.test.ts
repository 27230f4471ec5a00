import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, startAuthorize } from '../../helpers/auth';
import { issueToken, LINK_PATHS, signedApiLink } from '../../../server/services/signed-links';

/**
 * Issue 10 — no account enumeration: login, admin login, forgot-password and the invitation endpoints give
 * the same status and body for existing and unknown accounts, and their median answer times are within
 * 5 ms of each other (interleaved samples through app.inject; see `timingHolds` for how a busy machine's
 * noise is told apart from a difference).
 *
 * Only this test's app gets raised limits (lockout and rate limits, given to its configuration), so the
 * product's limits stay as they are; each request also comes from its own address.
 */
const RAISED: Record<string, string> = {
  IAM_LOCKOUT_MAX_FAILURES: '1000000',
  IAM_IP_MAX_FAILURES: '1000000',
  IAM_RATE_LIMIT_PER_MINUTE: '1000000',
};

const PW = 'Correct-Horse-9!';
const WRONG = 'Wrong-Passw0rd!x';
const MAX_MEDIAN_GAP_MS = 5;

let ip = 0;
const nextIp = () => `10.88.${(++ip >> 8) & 255}.${ip & 255}`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
/** Standard error of a median, from the median absolute deviation (robust to the odd stalled sample). */
const medianSe = (xs: number[]) => {
  const m = median(xs);
  const sigma = 1.4826 * median(xs.map((x) => Math.abs(x - m)));
  return (1.2533 * sigma) / Math.sqrt(xs.length);
};

/** Status + body of a response, the part an attacker compares. */
const shape = (r: LightMyRequestResponse) => ({ status: r.statusCode, body: r.body });

type Prepare = () => Promise<() => Promise<LightMyRequestResponse>>;
interface Side {
  wall: number[];
  cpu: number[];
}
interface TimingResult {
  samples: number;
  /** wall-clock medians (ms) */
  known: number;
  unknown: number;
  wallGap: number;
  /** 3 standard errors of the difference of the wall-clock medians (ms) */
  wallNoise: number;
  /** CPU-time medians (ms, user + system of the process, all threads: argon2 runs on the libuv pool) */
  cpuKnown: number;
  cpuUnknown: number;
  cpuGap: number;
}
const summarize = (k: Side, u: Side): TimingResult => ({
  samples: k.wall.length,
  known: median(k.wall),
  unknown: median(u.wall),
  wallGap: Math.abs(median(k.wall) - median(u.wall)),
  wallNoise: 3 * Math.hypot(medianSe(k.wall), medianSe(u.wall)),
  cpuKnown: median(k.cpu),
  cpuUnknown: median(u.cpu),
  cpuGap: Math.abs(median(k.cpu) - median(u.cpu)),
});
/**
 * The timing rule: the CPU-time medians (the work done for the request, what a timing attacker measures on
 * an idle server) are within 5 ms, and so are the wall-clock medians — or, on a machine so busy that the
 * wall-clock medians are noisier than that, their gap is within 3 standard errors (no measurable difference).
 */
const timingHolds = (r: TimingResult) => r.cpuGap < MAX_MEDIAN_GAP_MS && r.wallGap < Math.max(MAX_MEDIAN_GAP_MS, r.wallNoise);
const fmt = (r: TimingResult) =>
  `wall medians existing ${r.known.toFixed(1)} / unknown ${r.unknown.toFixed(1)} ms (gap ${r.wallGap.toFixed(1)}, noise ${r.wallNoise.toFixed(1)}), CPU medians ${r.cpuKnown.toFixed(1)} / ${r.cpuUnknown.toFixed(1)} ms, ${r.samples} samples each`;

/**
 * Times `known()` and `unknown()` interleaved (the order alternates each round, after a few warm-up rounds).
 * Each call prepares its request first and returns a thunk that sends it, so only the request is timed.
 * A busy machine only adds noise: when the rule does not hold after `rounds`, sampling continues in steps of
 * 10 rounds up to `maxRounds` and the decision is taken on all samples (never on a fresh, separate retry).
 */
async function timeInterleaved(rounds: number, known: Prepare, unknown: Prepare, maxRounds = rounds * 2.5): Promise<TimingResult> {
  const k: Side = { wall: [], cpu: [] };
  const u: Side = { wall: [], cpu: [] };
  const warmup = 3;
  for (let i = 0; ; i++) {
    const extra = i - warmup - rounds;
    if (extra >= 0 && extra % 10 === 0 && (k.wall.length >= maxRounds || timingHolds(summarize(k, u)))) break;
    const pair: [Prepare, Side][] = [
      [known, k],
      [unknown, u],
    ];
    if (i % 2) pair.reverse();
    for (const [prepare, side] of pair) {
      const send = await prepare();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await send();
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (i >= warmup) {
        side.wall.push(ms);
        side.cpu.push((c.user + c.system) / 1000);
      }
    }
    // let background work of the request (a mail being written) settle before the next sample
    await new Promise((r) => setTimeout(r, 2));
  }
  return summarize(k, u);
}

describeEachDb('no account enumeration (status, body, timing)', (get) => {
  let user: { email: string; id: string };
  let admin: { email: string };
  let ssoUser: { email: string };
  let inactive: { email: string };
  let noPassword: { email: string; id: string };

  beforeAll(async () => {
    const t = get();
    const tag = randomBytes(3).toString('hex');
    user = await createAccount(t, { type: 'user', email: `enum.user.${tag}@example.com`, password: PW });
    admin = await createAccount(t, { type: 'admin', email: `enum.admin.${tag}@example.com`, password: PW });
    ssoUser = await createAccount(t, { type: 'user', email: `enum.sso.${tag}@example.com`, auth_type: 'SSO' });
    inactive = await createAccount(t, { type: 'user', email: `enum.off.${tag}@example.com`, password: PW, status: 'INACTIVE' });
    noPassword = await createAccount(t, { type: 'user', email: `enum.new.${tag}@example.com` });
  }, 120_000);

  const login = async (t: TestApp, type: 'user' | 'admin', email: string, password = WRONG) => {
    const start = await startAuthorize(t, { client: type === 'admin' ? 'admin-console' : 'portal' });
    return () => t.app.inject({ method: 'POST', url: type === 'admin' ? '/api/admin/login' : '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password, interaction: start.interaction }, remoteAddress: nextIp() });
  };

  it('login and admin login: existing (wrong password, SSO-only, inactive, not yet verified, other type) and unknown e-mails get the same status and body', async () => {
    const t = get();
    const unknown = shape(await (await login(t, 'user', `nobody.${randomBytes(4).toString('hex')}@example.com`))());
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: 'invalid_credentials' } });
    for (const email of [user.email, ssoUser.email, inactive.email, noPassword.email, admin.email, user.email.toUpperCase(), ` ${user.email} `]) {
      expect(shape(await (await login(t, 'user', email))()), email).toEqual(unknown);
    }
    const unknownAdmin = shape(await (await login(t, 'admin', `nobody.${randomBytes(4).toString('hex')}@example.com`))());
    expect(unknownAdmin).toEqual(unknown);
    for (const email of [admin.email, user.email, admin.email.toUpperCase()]) {
      expect(shape(await (await login(t, 'admin', email))()), email).toEqual(unknownAdmin);
    }
  });

  it(`login: median answer times for an existing account (wrong password) and an unknown e-mail are within ${MAX_MEDIAN_GAP_MS} ms`, async () => {
    const t = get();
    let n = 0;
    const r = await timeInterleaved(
      24,
      () => login(t, 'user', user.email),
      () => login(t, 'user', `ghost${++n}.${randomBytes(3).toString('hex')}@example.com`),
    );
    console.info(`[enumeration ${t.kind}] /api/login: ${fmt(r)}`);
    expect(timingHolds(r), fmt(r)).toBe(true);
  });

  it(`admin login: median answer times for an existing admin (wrong password) and an unknown e-mail are within ${MAX_MEDIAN_GAP_MS} ms`, async () => {
    const t = get();
    let n = 0;
    const r = await timeInterleaved(
      24,
      () => login(t, 'admin', admin.email),
      () => login(t, 'admin', `ghost-admin${++n}.${randomBytes(3).toString('hex')}@example.com`),
    );
    console.info(`[enumeration ${t.kind}] /api/admin/login: ${fmt(r)}`);
    expect(timingHolds(r), fmt(r)).toBe(true);
  });

  const forgot = (t: TestApp, type: 'user' | 'admin', email: string) => async () => () =>
    t.app.inject({ method: 'POST', url: type === 'admin' ? '/api/admin/forgot-password' : '/api/forgot-password', payload: { email }, remoteAddress: nextIp() });

  it('forgot-password (user and admin): existing and unknown e-mails get the same status and body, and medians within 5 ms', async () => {
    const t = get();
    for (const type of ['user', 'admin'] as const) {
      const unknown = shape(await (await (await forgot(t, type, `nobody.${randomBytes(4).toString('hex')}@example.com`))())());
      expect(unknown.status).toBe(200);
      const existing = type === 'admin' ? [admin.email] : [user.email, ssoUser.email, inactive.email, admin.email];
      for (const email of existing) expect(shape(await (await (await forgot(t, type, email))())()), email).toEqual(unknown);
    }
    // the per-e-mail limit (3 an hour) is the product's: timing uses fresh existing accounts, three requests each
    // enough accounts for the longest sampling (warm-up + up to 2.5 × 36 rounds, three requests each)
    const pool = await Promise.all(Array.from({ length: Math.ceil((3 + 36 * 2.5) / 3) + 1 }, (_, i) => createAccount(t, { type: 'user', email: `enum.fp${i}.${randomBytes(3).toString('hex')}@example.com` })));
    let k = 0;
    let n = 0;
    const r = await timeInterleaved(
      36,
      () => forgot(t, 'user', (pool[Math.floor(k++ / 3)] as { email: string }).email)(),
      () => forgot(t, 'user', `ghost-fp${++n}.${randomBytes(3).toString('hex')}@example.com`)(),
    );
    console.info(`[enumeration ${t.kind}] /api/forgot-password: ${fmt(r)}`);
    expect(timingHolds(r), fmt(r)).toBe(true);
  });

  it('invitation links: a used or superseded invitation of an existing account and a never-issued token answer alike (status, body, medians within 5 ms)', async () => {
    const t = get();
    const path = LINK_PATHS.invitation.user;
    const inHour = () => new Date(Date.now() + 3600_000);
    // an existing account's invitation, superseded by a newer one (the older token is dead)
    const old = await issueToken(t.db.kysely, noPassword.id, 'invitation', 3600_000);
    await issueToken(t.db.kysely, noPassword.id, 'invitation', 3600_000);
    const existingLink = await signedApiLink(t.app, path, old.token, old.expiresAt);
    const unknownLink = async () => signedApiLink(t.app, path, randomBytes(32).toString('base64url'), inHour());
    const body = (url: string) => ({ url, password: 'Fresh-Passw0rd!23', password_confirmation: 'Fresh-Passw0rd!23' });
    const check = (url: string) => t.app.inject({ method: 'GET', url: `${path}${new URL(url).search}`, remoteAddress: nextIp() });
    const verify = (url: string) => t.app.inject({ method: 'POST', url: '/api/user/verify', payload: body(url), remoteAddress: nextIp() });

    const refusedCheck = shape(await check(await unknownLink()));
    expect(refusedCheck.status).toBe(403);
    expect(JSON.parse(refusedCheck.body)).toMatchObject({ error: { code: 'invalid_link' } });
    expect(shape(await check(existingLink))).toEqual(refusedCheck);
    const refusedVerify = shape(await verify(await unknownLink()));
    expect(refusedVerify.status).toBe(403);
    expect(shape(await verify(existingLink))).toEqual(refusedVerify);
    // the same for an admin's invitation used through the user endpoint (type mismatch)
    const adminInvite = await issueToken(t.db.kysely, (await createAccount(t, { type: 'admin', email: `enum.inv.${randomBytes(3).toString('hex')}@example.com` })).id, 'invitation', 3600_000);
    expect(shape(await check(await signedApiLink(t.app, path, adminInvite.token, adminInvite.expiresAt)))).toEqual(refusedCheck);

    const r = await timeInterleaved(
      40,
      async () => () => check(existingLink),
      async () => {
        const link = await unknownLink();
        return () => check(link);
      },
    );
    console.info(`[enumeration ${t.kind}] GET ${path}: ${fmt(r)}`);
    expect(timingHolds(r), fmt(r)).toBe(true);
  });
}, RAISED);
