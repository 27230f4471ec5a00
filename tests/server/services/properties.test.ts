import { beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { TOTP, Secret } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, refresh, signIn } from '../../helpers/auth';
import { createTotpSecret, TOTP_PERIOD, verifyTotp } from '../../../server/services/two-factor';
import { checkSignedLink, consumeToken, issueToken, LINK_PATHS, parseSignedUrl, signedApiLink, type LinkPurpose } from '../../../server/services/signed-links';
import type { Account } from '../../../server/db/schema';

/**
 * Property tests (fast-check, fixed seeds, so every run checks the same cases) for the one-time secrets:
 * TOTP steps, signed links, refresh-token rotation.
 */
const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

describeEachDb('TOTP over random timestamps', (get) => {
  let account: Account;
  let totp: TOTP;
  beforeAll(async () => {
    const t = get();
    account = await createAccount(t, { type: 'user', email: email('totp'), password: null });
    const { secret } = await createTotpSecret(t.app, account);
    totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: TOTP_PERIOD, algorithm: 'SHA1' });
  });

  it('a code is accepted within ±1 step of the server clock, never outside, and never twice or for an older step', async () => {
    const t = get();
    const attempt = fc.record({ advance: fc.integer({ min: 0, max: 3 * TOTP_PERIOD * 1000 }), delta: fc.integer({ min: -3, max: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_700_000_000_000, max: 4_000_000_000_000 }), fc.array(attempt, { minLength: 1, maxLength: 6 }), async (start, attempts) => {
        await t.db.kysely.updateTable('accounts').set({ two_factor_last_step: null }).where('id', '=', account.id).execute();
        let now = start;
        let last = -Infinity;
        for (const { advance, delta } of attempts) {
          now += advance;
          const serverStep = Math.floor(now / 1000 / TOTP_PERIOD);
          const codeStep = serverStep + delta;
          const code = totp.generate({ timestamp: codeStep * TOTP_PERIOD * 1000 });
          // the secret is random per run, the seed fixes only the timestamps: skip the rare attempt (~1e-6) whose
          // code is also the code of another step of the server's window (it then IS that step's code, and the
          // expected answer would depend on the secret)
          const others = [serverStep - 1, serverStep, serverStep + 1].filter((s) => s !== codeStep);
          if (others.some((s) => totp.generate({ timestamp: s * TOTP_PERIOD * 1000 }) === code)) continue;
          const expected = Math.abs(delta) <= 1 && codeStep > last;
          const got = await verifyTotp(t.app, account, code, now);
          expect({ start, now, delta, last, got }).toEqual({ start, now, delta, last, got: expected });
          if (got) {
            last = codeStep;
            // the very same code again: a replay
            expect(await verifyTotp(t.app, account, code, now)).toBe(false);
          }
        }
      }),
      { seed: 424242, numRuns: 60 },
    );
  });
});

describeEachDb('signed links', (get) => {
  type Mutation =
    | { kind: 'none' }
    | { kind: 'tamper'; field: 'token' | 'signature' | 'expires'; at: number; char: string }
    | { kind: 'expired' }
    | { kind: 'reused' }
    | { kind: 'cross_purpose' }
    | { kind: 'cross_type' };
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.constant({ kind: 'none' as const }),
    fc.record({ kind: fc.constant('tamper' as const), field: fc.constantFrom('token' as const, 'signature' as const, 'expires' as const), at: fc.nat(200), char: fc.constantFrom('0', '1', 'a', 'f', 'A', '_', '-', '9') }),
    fc.constant({ kind: 'expired' as const }),
    fc.constant({ kind: 'reused' as const }),
    fc.constant({ kind: 'cross_purpose' as const }),
    fc.constant({ kind: 'cross_type' as const }),
  );

  it('only an untouched, unexpired, unused link of the right purpose and account type is accepted', async () => {
    const t = get();
    const accounts = { user: await createAccount(t, { type: 'user', email: email('link-u'), password: null }), admin: await createAccount(t, { type: 'admin', email: email('link-a'), password: null }) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<LinkPurpose>('invitation', 'reset'), fc.constantFrom('user' as const, 'admin' as const), mutation, async (purpose, type, m) => {
        const paths = LINK_PATHS[purpose as 'invitation' | 'reset'];
        const { token, expiresAt } = await issueToken(t.db.kysely, accounts[type].id, purpose, m.kind === 'expired' ? -5_000 : 600_000);
        const url = await signedApiLink(t.app, paths[type], token, expiresAt);
        const p = parseSignedUrl(url, [paths[type]]);
        if (!p) throw new Error('unparsable link');
        const params = { token: p.token, expires: p.expires, signature: p.signature };
        const checkPath: string = paths[type];
        let checkPurpose: LinkPurpose = purpose;
        let checkType: 'user' | 'admin' = type;
        if (m.kind === 'tamper') {
          const v = params[m.field] ?? '';
          const i = m.at % v.length;
          const changed = v.slice(0, i) + m.char + v.slice(i + 1);
          if (changed === v) return; // not a change
          params[m.field] = changed;
        }
        if (m.kind === 'reused') {
          const first = await checkSignedLink(t.app, checkPath, params, checkPurpose, checkType);
          expect(await consumeToken(t.db.kysely, first.tokenId)).toBe(true);
        }
        // validly signed for its path, but presented for another purpose / account type: the stored token decides
        if (m.kind === 'cross_purpose') checkPurpose = purpose === 'reset' ? 'invitation' : 'reset';
        if (m.kind === 'cross_type') checkType = type === 'user' ? 'admin' : 'user';
        const outcome = await checkSignedLink(t.app, checkPath, params, checkPurpose, checkType).then(
          (v) => ({ ok: v.account.id === accounts[type].id }),
          (e: { code?: string }) => ({ refused: e.code }),
        );
        expect({ m, outcome }).toEqual({ m, outcome: m.kind === 'none' ? { ok: true } : { refused: 'invalid_link' } });
        // a cross-purpose/type attempt also leaves the link itself usable exactly once
        if (m.kind === 'cross_purpose' || m.kind === 'cross_type' || m.kind === 'none') {
          const v = await checkSignedLink(t.app, paths[type], params, purpose, type);
          expect(await consumeToken(t.db.kysely, v.tokenId)).toBe(true);
          expect(await consumeToken(t.db.kysely, v.tokenId)).toBe(false);
          await expect(checkSignedLink(t.app, paths[type], params, purpose, type)).rejects.toMatchObject({ code: 'invalid_link' });
        }
      }),
      { seed: 777, numRuns: 120 },
    );
  });
});

describeEachDb('refresh-token rotation under random interleavings', (get) => {
  let user: Account;
  beforeAll(async () => {
    user = await createAccount(get(), { type: 'user', email: email('rt'), password: PASSWORD });
  });

  /** Each batch: 1–3 refreshes sent together, each presenting one of the refresh tokens issued so far. */
  const batches = fc.array(fc.array(fc.nat(20), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });

  it('every refresh token succeeds at most once; presenting a spent one revokes the grant for good', async () => {
    const t: TestApp = get();
    await fc.assert(
      fc.asyncProperty(batches, async (plan) => {
        const tokens = await signIn(t, { email: user.email, password: PASSWORD });
        const issued = [tokens.refreshToken];
        const spent = new Set<string>();
        const successes = new Map<string, number>();
        let dead = false;
        for (const picks of plan) {
          const presented = picks.map((i) => issued[i % issued.length] as string);
          const current = issued[issued.length - 1] as string;
          const results = await Promise.all(presented.map((rt) => refresh(t, rt)));
          const reuse = presented.some((rt, i) => spent.has(rt) || presented.indexOf(rt) !== i);
          results.forEach((r, i) => {
            const rt = presented[i] as string;
            if (r.statusCode === 200) {
              successes.set(rt, (successes.get(rt) ?? 0) + 1);
              expect({ dead, isCurrent: rt === current }).toEqual({ dead: false, isCurrent: true });
              issued.push(r.json<{ refresh_token: string }>().refresh_token);
            } else {
              expect(r.json<{ error: string }>().error).toBe('invalid_grant');
            }
          });
          // the only token presented, alone, on a live grant: it must work
          if (!dead && presented.length === 1 && presented[0] === current) expect(results[0]?.statusCode).toBe(200);
          for (const rt of presented) spent.add(rt);
          if (reuse) dead = true;
        }
        for (const count of successes.values()) expect(count).toBe(1);
        const last = await refresh(t, issued[issued.length - 1] as string);
        expect({ dead, status: last.statusCode }).toEqual({ dead, status: dead ? 400 : 200 });
      }),
      { seed: 13579, numRuns: 12 },
    );
  });
});
