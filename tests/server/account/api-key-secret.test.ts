import { describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, parseApiKey, signIn } from '../../helpers/auth';

/**
 * API key secrets are base64url, so about half of them contain `_` — the separator of `iam_<prefix>_<secret>`.
 * A test that split the key on `_` checked a fragment of the secret (often one letter, or '' when the secret starts
 * with `_`) and failed now and then. These tests force such secrets instead of waiting for chance: the next
 * `randomBytes(32)` (the key generator's secret) returns bytes chosen here; every other call stays random.
 */
const forced = vi.hoisted(() => [] as Buffer[]);
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  function randomBytes(size: number): Buffer;
  function randomBytes(size: number, cb: (err: Error | null, buf: Buffer) => void): void;
  function randomBytes(size: number, cb?: (err: Error | null, buf: Buffer) => void): Buffer | void {
    const next = size === 32 && !cb ? forced.shift() : undefined;
    if (next) return next;
    return cb ? real.randomBytes(size, cb) : real.randomBytes(size);
  }
  return { ...real, default: { ...real, randomBytes }, randomBytes };
});

/** 43-character base64url secrets (the last character carries 4 bits, so it is one of A E I … 8, never `_`). */
const EDGE_SECRETS = {
  'starts with _ (a split on _ gave "")': '_Kq7vZ2mXw9pLr4tYb6nHc3dFg8jMs5aQe1uVo0iRkA',
  'has one letter, then _ (a split on _ gave "a")': 'a_Zq7vZ2mXw9pLr4tYb6nHc3dFg8jMs5aQe1uVo0iRk',
  'has _ every few characters': 'Xy_Kq7_vZ2_mXw_9pL_r4t_Yb6_nHc_3dF_g8j_Ms5o',
  'is only _ and -': '_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-8',
  'has all bits set': '__________________________________________w',
} as const;

const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

/** Every 8-character piece of `secret`: a stored copy of any part of the secret would contain one of them. */
const piecesOf = (secret: string) => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));

describe('parseApiKey', () => {
  it('takes the secret by position, whole, whatever `_` it holds', () => {
    for (const secret of Object.values(EDGE_SECRETS)) {
      expect(secret).toHaveLength(43);
      expect(parseApiKey(`iam_0a1b2c3d_${secret}`)).toEqual({ prefix: '0a1b2c3d', secret });
    }
    expect(() => parseApiKey('iam_0a1b2c3d_short')).toThrow();
    expect(() => parseApiKey(`iam_0A1B2C3D_${EDGE_SECRETS['has all bits set']}`)).toThrow();
  });
});

describeEachDb('API key secrets containing `_`', (get) => {
  async function generate(t: TestApp, secret: string) {
    const admin = await createAccount(t, { type: 'admin', email: email('manager'), password: PASSWORD, admin_role: 'manager' });
    const tokens = await signIn(t, { email: admin.email, password: PASSWORD, client: 'admin-console' });
    const tech = await createAccount(t, { type: 'user', email: email('tech'), technical: 1, password: null });
    const bytes = Buffer.from(secret, 'base64url');
    expect(bytes).toHaveLength(32);
    expect(bytes.toString('base64url')).toBe(secret);
    forced.push(bytes);
    const gen = await t.app.inject({ method: 'POST', url: `/api/admin/users/${tech.id}/token-generate`, headers: { authorization: tokens.authorization } });
    // the forced bytes were taken by the key generator, not by another caller
    expect(forced).toEqual([]);
    expect(gen.statusCode).toBe(200);
    return { tech, key: gen.json<{ data: { api_key: string } }>().data.api_key };
  }

  for (const [name, secret] of Object.entries(EDGE_SECRETS)) {
    it(`a secret that ${name}: the key carries it whole, no part of it is stored, only the hash; it signs in`, async () => {
      const t = get();
      const { tech, key } = await generate(t, secret);
      const parsed = parseApiKey(key);
      expect(parsed.secret).toBe(secret);
      const row = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', tech.id).executeTakeFirstOrThrow();
      expect(row.api_key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(row.api_key_prefix).toBe(parsed.prefix);
      const audit = await t.db.kysely.selectFrom('audit_log').selectAll().where('target_id', '=', tech.id).execute();
      expect(audit.map((a) => a.action)).toEqual(['user.api_key_generated']);
      const stored = JSON.stringify([row, audit]);
      expect(piecesOf(secret).filter((piece) => stored.includes(piece))).toEqual([]);
      const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${key}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json<{ data: { auth_user: { email: string } } }>().data.auth_user.email).toBe(tech.email);
    });
  }
});
