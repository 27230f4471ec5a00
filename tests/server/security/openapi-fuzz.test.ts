import { readdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import type { DomainMessages } from '../../../server/i18n/index';
import { arbFromSchema, HOSTILE_STRINGS, withPollution, type JsonSchema } from './schema-arb';

/**
 * Issue 10 — every operation of /api/openapi.json fuzzed with random and boundary bodies, queries and path
 * parameters (fast-check, fixed seeds), as anonymous, user, manager and super_admin: no 5xx, and every
 * refusal is `{ error: { code, message } }` with a code (and field codes) from the message catalog.
 *
 * The OpenAPI document lists the error *statuses* of each operation (its own, plus the refusals any route can
 * give: 400, 404, 413, 414, 415, 422, 429, 503) but not their codes: every answer's status must be documented for
 * its operation, and codes are checked against the global catalog (server/i18n/messages/*.ts).
 */
const RAISED: Record<string, string> = { IAM_LOCKOUT_MAX_FAILURES: '1000000', IAM_IP_MAX_FAILURES: '1000000', IAM_RATE_LIMIT_PER_MINUTE: '1000000' };

const PASSWORD = 'Fuzz-Tango-Kilo-93!';
const ROLES = ['anonymous', 'user', 'manager', 'super_admin'] as const;
type Role = (typeof ROLES)[number];
/** inputs per operation and role (fewer for anonymous on secured routes: the guard answers before parsing) */
const runsFor = (kind: string, role: Role, secured: boolean) => (kind === 'postgres' ? 3 : role === 'anonymous' && secured ? 4 : 9);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  parameters?: { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
  security?: unknown[];
}

/** Every code the server can localize: the keys of server/i18n/messages/*.ts (en). */
async function catalog(): Promise<Set<string>> {
  const dir = path.resolve(import.meta.dirname, '../../../server/i18n/messages');
  const keys = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    const mod = (await import(path.join(dir, f))) as { default: DomainMessages };
    for (const k of Object.keys(mod.default.en)) keys.add(k);
  }
  return keys;
}

let ipN = 0;
const nextIp = () => `10.99.${(++ipN >> 8) & 255}.${ipN & 255}`;
const seedOf = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);

type BodyMode = 'json' | 'malformed' | 'text' | 'form' | 'none' | 'empty-json' | 'array';
interface Input {
  params: Record<string, unknown>;
  query: [string, string][];
  body: unknown;
  mode: BodyMode;
  headers: Record<string, string>;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v) ?? String(v));

function inputArb(op: Operation, ids: string[]): fc.Arbitrary<Input> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'path');
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const pathArb = fc.tuple(
    ...params.map((p) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...ids) },
        { weight: 3, arbitrary: arbFromSchema(p.schema, p.name) },
        { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', '%', '%ZZ', 'a/b', '🙂', ' ', 'null', '-1', '0', '1e9') },
      ),
    ),
  );
  const queryArb = fc.tuple(
    ...query.map((p) =>
      fc.tuple(fc.constant(p.name), arbFromSchema(p.schema, p.name), fc.integer({ min: 0, max: 9 })).map(([name, v, roll]) => {
        if (roll < 3) return [] as [string, string][];
        if (roll === 9) return [[name, asText(v)], [name, 'dup']] as [string, string][];
        return [[name, asText(v)]] as [string, string][];
      }),
    ),
    fc.oneof({ weight: 5, arbitrary: fc.constant([] as [string, string][]) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map((s) => [[s || 'x', s]] as [string, string][]) }),
  );
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const bodyArb = schema ? arbFromSchema(schema, 'body') : fc.oneof(fc.constant(undefined), fc.constant({}), fc.nat().map((n) => withPollution({}, n)));
  const modeArb = fc.constantFrom<BodyMode>(...(schema ? (['json', 'json', 'json', 'json', 'json', 'json', 'malformed', 'text', 'form', 'none', 'empty-json', 'array'] as const) : (['none', 'none', 'none', 'json', 'malformed', 'text'] as const)));
  const headerArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant({} as Record<string, string>) },
    { weight: 1, arbitrary: fc.constantFrom('de', 'xx', '', 'fr-CH', '*', 'it;q=0.1, de;q=bad').map((l) => ({ locale: l, 'accept-language': l })) },
  );
  return fc.record({ params: pathArb, query: queryArb, body: bodyArb, mode: modeArb, headers: headerArb }).map(({ params: p, query: q, body, mode, headers }) => ({
    params: Object.fromEntries(params.map((pp, i) => [pp.name, p[i]])),
    query: q.flat(),
    body,
    mode,
    headers,
  }));
}

/** Lone surrogates → U+FFFD (encodeURIComponent throws on them). */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

function toRequest(op: Operation, input: Input) {
  const url =
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = asText(input.params[name]);
      return v === '' ? '%20' : /^%|\/|^\.\.?$/.test(v) ? wellFormed(v) : encodeURIComponent(wellFormed(v));
    }) + (input.query.length ? `?${new URLSearchParams(input.query).toString()}` : '');
  const headers: Record<string, string> = { ...input.headers };
  let payload: string | undefined;
  switch (input.mode) {
    case 'json':
      payload = JSON.stringify(input.body);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      break;
    case 'malformed':
      payload = '{"email": "a@b.c", "password": ';
      headers['content-type'] = 'application/json';
      break;
    case 'text':
      payload = asText(input.body);
      headers['content-type'] = 'text/plain';
      break;
    case 'form':
      payload = 'email=a%40b.c&password=x&__proto__[polluted]=yes';
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'empty-json':
      payload = '';
      headers['content-type'] = 'application/json';
      break;
    case 'array':
      payload = JSON.stringify([input.body]);
      headers['content-type'] = 'application/json';
      break;
    case 'none':
      break;
  }
  return { method: op.method.toUpperCase() as 'GET', url, headers, payload };
}

describeEachDb('OpenAPI fuzz: every route, every role', (get) => {
  const codes = new Set<string>();
  const principals = new Map<Role, { id: string; email: string; client: 'portal' | 'admin-console'; authorization: string }>();
  const ids: string[] = ['00000000-0000-0000-0000-000000000000'];

  async function signInAs(t: TestApp, role: Exclude<Role, 'anonymous'>) {
    const p = principals.get(role);
    if (!p) throw new Error(role);
    const row = await t.db.kysely.selectFrom('accounts').select(['email']).where('id', '=', p.id).executeTakeFirstOrThrow();
    p.authorization = (await signIn(t, { email: row.email, password: PASSWORD, client: p.client })).authorization;
  }

  beforeAll(async () => {
    const t = get();
    for (const c of await catalog()) codes.add(c);
    for (const role of ['user', 'manager', 'super_admin'] as const) {
      const email = `fuzz.${role}.${t.kind}@example.com`;
      const a = await createAccount(t, { type: role === 'user' ? 'user' : 'admin', email, password: PASSWORD, ...(role === 'user' ? {} : { admin_role: role }) });
      principals.set(role, { id: a.id, email, client: role === 'user' ? 'portal' : 'admin-console', authorization: '' });
      await signInAs(t, role);
    }
    // real targets for {id}: a user, an admin, a role, a subscription, a service app (the fuzz may change or delete them)
    const su = { authorization: principals.get('super_admin')?.authorization ?? '' };
    const post = async (url: string, payload: unknown) => {
      const r = await t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: su });
      if (r.statusCode !== 201) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
      return r.json<{ data: { id: string } }>().data.id;
    };
    const role = await post('/api/admin/roles', { name: 'FUZZ_ROLE', description: 'fuzz' });
    ids.push(
      role,
      await post('/api/admin/subscriptions', { name: 'FUZZ_SUB', description: 'fuzz', role_ids: [role] }),
      await post('/api/admin/service-apps', { name: 'fuzz-app', display_name: 'Fuzz', url: 'https://fuzz.example', path: '/cb', role_ids: [role] }),
      await post('/api/admin/users', { email: `fuzz.target.${t.kind}@example.com`, first_name: 'Fuzz', last_name: 'Target', locale: 'en', auth_type: 'CREDENTIALS' }),
      await post('/api/admin/admins', { email: `fuzz.admin.${t.kind}@example.com`, first_name: 'Fuzz', last_name: 'Admin', locale: 'en', role: 'manager' }),
    );
  }, 120_000);

  it('URLs the router refuses (bad percent-encoding, an over-long path parameter) answer in the common, localized error shape', async () => {
    const t = get();
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/users/%ZZ', headers: { locale: 'de' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: { code: 'bad_request', message: 'Die Anfrage ist fehlerhaft' } });
    const long = await t.app.inject({ method: 'GET', url: `/api/admin/users/${'x'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: { code: 'uri_too_long', message: 'The address of the request is too long' } });
  });

  it('no 5xx and only catalogued error codes for random and boundary inputs on every documented operation', { timeout: 240_000 }, async () => {
    const t = get();
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> }>();
    const ops: Operation[] = Object.entries(doc.paths).flatMap(([p, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ ...(item[m] as Omit<Operation, 'method' | 'path'>), method: m, path: p })),
    );
    expect(ops.length).toBeGreaterThan(60);

    const failures: string[] = [];
    const undocumented = new Map<string, number>();
    const statusCount = new Map<number, number>();
    let requests = 0;
    const started = performance.now();
    const check = (role: Role, op: Operation, req: ReturnType<typeof toRequest>, res: LightMyRequestResponse) => {
      requests++;
      statusCount.set(res.statusCode, (statusCount.get(res.statusCode) ?? 0) + 1);
      const what = () => `${role} ${req.method} ${req.url.slice(0, 200)} ${req.headers['content-type'] ?? ''} ${String(req.payload ?? '').slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
      if (res.statusCode >= 500) {
        failures.push(`5xx: ${what()}`);
        return;
      }
      if (!(String(res.statusCode) in (op.responses ?? {}))) {
        failures.push(`status not documented for the operation: ${what()}`);
        undocumented.set(`${op.method.toUpperCase()} ${op.path} ${res.statusCode}`, (undocumented.get(`${op.method.toUpperCase()} ${op.path} ${res.statusCode}`) ?? 0) + 1);
      }
      if (res.statusCode < 400) return;
      let body: { error?: { code?: unknown; message?: unknown; fields?: Record<string, unknown> } };
      try {
        body = JSON.parse(res.body) as typeof body;
      } catch {
        failures.push(`non-JSON refusal: ${what()}`);
        return;
      }
      const code = body.error?.code;
      if (typeof code !== 'string' || typeof body.error?.message !== 'string') {
        failures.push(`refusal without {error:{code,message}}: ${what()}`);
        return;
      }
      if (!codes.has(code)) failures.push(`code not in the catalog (${code}): ${what()}`);
      for (const [field, list] of Object.entries(body.error.fields ?? {})) {
        for (const fc0 of Array.isArray(list) ? list : [list]) {
          if (typeof fc0 !== 'string' || !(codes.has(`validation.${fc0}`) || codes.has(fc0))) failures.push(`field code not in the catalog (${field}: ${String(fc0)}): ${what()}`);
        }
      }
    };

    for (const op of ops) {
      const secured = Array.isArray(op.security) && op.security.length > 0;
      for (const role of ROLES) {
        const inputs = fc.sample(inputArb(op, ids), { seed: seedOf(`${t.kind} ${op.method} ${op.path} ${role}`), numRuns: runsFor(t.kind, role, secured) });
        for (const input of inputs) {
          const req = toRequest(op, input);
          const auth = role === 'anonymous' ? undefined : principals.get(role)?.authorization;
          const res = await t.app.inject({ ...req, headers: { ...req.headers, ...(auth ? { authorization: auth } : {}) }, remoteAddress: nextIp() });
          check(role, op, req, res);
        }
        if (role !== 'anonymous') {
          // the fuzz may have ended the session (logout, new password…): sign in again for the next operation
          const me = await t.app.inject({ method: 'GET', url: role === 'user' ? '/api/user' : '/api/admin', headers: { authorization: principals.get(role)?.authorization ?? '' }, remoteAddress: nextIp() });
          if (me.statusCode === 401) await signInAs(t, role);
        }
      }
    }
    const ms = performance.now() - started;
    console.info(
      `[openapi-fuzz ${t.kind}] ${ops.length} operations, ${requests} requests in ${(ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statusCount].sort((a, b) => a[0] - b[0])))}; ` +
        `statuses not in the operation's documented list: ${undocumented.size} operation/status pairs, by status ${JSON.stringify(
          [...undocumented].reduce<Record<string, number>>((acc, [k, n]) => ({ ...acc, [k.slice(-3)]: (acc[k.slice(-3)] ?? 0) + n }), {}),
        )}`,
    );
    expect(failures.slice(0, 40)).toEqual([]);
    // no request polluted a prototype of the server process (the app runs in this process)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
}, RAISED);
