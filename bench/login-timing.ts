/**
 * No user enumeration by timing: `npm run bench:login` measures POST /api/login for a wrong password on
 * an existing account and for an unknown e-mail, interleaved, through the real HTTP stack, and prints p50/p95
 * and the difference of medians. Env: BENCH_LOGIN_RUNS (default 60).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config';
import { buildApp } from '../server/app';
import { accountRow } from '../server/services/accounts';
import { hashPassword } from '../server/services/passwords';
import { CookieJar, pkcePair, pathOf } from '../tests/helpers/auth';

const RUNS = Number(process.env.BENCH_LOGIN_RUNS || 60);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? 0;

async function main() {
  // generous limits: this measures answer time, not the lockout
  process.env.IAM_RATE_LIMIT_PER_MINUTE = '100000000';
  process.env.IAM_LOCKOUT_MAX_FAILURES = '1000000';
  process.env.IAM_IP_MAX_FAILURES = '1000000';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-bench-login-'));
  const config = loadConfig({ IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', IAM_DIST_DIR: path.join(dataDir, 'none') });
  const app = await buildApp({ config, logger: false });
  await app.db.kysely
    .insertInto('accounts')
    .values(accountRow({ type: 'user', email: 'known@example.com', first_name: 'K', last_name: 'N', locale: 'en', status: 'ACTIVE', auth_type: 'CREDENTIALS', technical: 0, password_hash: await hashPassword('Right-Passw0rd!'), password_changed_at: new Date().toISOString() }))
    .execute();

  async function interaction(): Promise<string> {
    const { challenge } = pkcePair();
    const jar = new CookieJar();
    const q = new URLSearchParams({ client_id: 'portal', response_type: 'code', scope: 'openid', redirect_uri: `${config.appUrl}/login`, code_challenge: challenge, code_challenge_method: 'S256', state: 's'.repeat(40) });
    const res = await app.inject({ method: 'GET', url: `/oidc/auth?${q}` });
    jar.store(res);
    const loc = String(res.headers.location);
    return new URL(pathOf(loc), 'http://x').searchParams.get('interaction') ?? '';
  }
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    for (const [email, bucket] of [['known@example.com', known], [`nobody${i}@example.com`, unknown]] as const) {
      const uid = await interaction();
      const t0 = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Wrong-Passw0rd!', interaction: uid } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 401) throw new Error(`expected 401, got ${res.statusCode}: ${res.body}`);
      if (i >= 5) bucket.push(ms);
    }
  }
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  const row = (name: string, xs: number[]) => `| ${name} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 95).toFixed(1)} |`;
  console.log(`| POST /api/login (${RUNS} runs each, interleaved) | p50 ms | p95 ms |\n|---|---:|---:|`);
  console.log(row('existing account, wrong password', known));
  console.log(row('unknown e-mail', unknown));
  console.log(`\nDifference of medians: ${(pct(unknown, 50) - pct(known, 50)).toFixed(1)} ms (both answer 401 invalid_credentials)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
