import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { errorCode } from '../../helpers/env';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { multipart } from '../admin/fixtures';
import { canStartFormula, csvCorpus } from './hostile-files';

/**
 * Issue 10 — a generated corpus of ≥ 200 hostile CSV files (formula triggers, huge fields, NUL, BOMs, mixed
 * encodings, quotes, CR/LF injections, too many columns, 10k rows of garbage): every one is refused or imported
 * cleanly, and no cell of the export that follows can start a formula in a spreadsheet of any locale (nor in a
 * naive reader that splits on another locale's separator); the export imports back as is.
 */
const RAISED: Record<string, string> = { IAM_RATE_LIMIT_PER_MINUTE: '1000000' };

const PW = 'Corpus-Upload-7!x';
describeEachDb('hostile corpus: CSV import and export', (get) => {
  let adminAuth = '';
  beforeAll(async () => {
    const t = get();
    const tag = randomBytes(3).toString('hex');
    await createAccount(t, { type: 'admin', email: `corpus.admin.${tag}@example.com`, password: PW, admin_role: 'super_admin' });
    adminAuth = (await signIn(t, { email: `corpus.admin.${tag}@example.com`, password: PW, client: 'admin-console' })).authorization;
  }, 120_000);

  it('≥ 200 hostile CSV imports: each refused or imported cleanly, and the export that follows has no cell that can start a formula', { timeout: 240_000 }, async () => {
    const t = get();
    const files = csvCorpus(t.kind);
    expect(files.length).toBeGreaterThanOrEqual(200);
    const wrong: string[] = [];
    const tally = new Map<number, number>();
    const started = performance.now();
    for (const f of files) {
      const form = multipart('file', 'users.csv', f.bytes, 'text/csv');
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/users/import', payload: form.payload, headers: { ...form.headers, authorization: adminAuth } });
      tally.set(res.statusCode, (tally.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 202) {
        const id = res.json<{ data: { job_id: string } }>().data.job_id;
        let status = 'running';
        for (let i = 0; i < 600 && (status === 'running' || status === 'queued'); i++) {
          await new Promise((r) => setTimeout(r, 50));
          const job = await t.app.inject({ method: 'GET', url: `/api/admin/users/import/${id}`, headers: { authorization: adminAuth } });
          if (job.statusCode !== 200) wrong.push(`${f.name}: job status ${job.statusCode}`);
          status = job.json<{ data: { status: string } }>().data.status;
        }
        if (status !== 'done' && status !== 'failed') wrong.push(`${f.name}: job ${status}`);
      } else if (res.statusCode === 200) {
        const r = res.json<{ data: { total: number; created: number; skipped: unknown[]; failed: unknown[]; truncated?: boolean } }>().data;
        if (!r.truncated && r.created + r.skipped.length + r.failed.length !== r.total) wrong.push(`${f.name}: report does not add up ${JSON.stringify(r).slice(0, 200)}`);
      } else if (res.statusCode === 413 || res.statusCode === 422) {
        const code = errorCode(res);
        if (!code || !['users_import_failed', 'validation_failed', 'payload_too_large'].includes(code)) wrong.push(`${f.name}: refusal code ${code}`);
      } else {
        wrong.push(`${f.name}: status ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);

    // what was stored is clean text: no NUL, and a Latin-1 file was read as Latin-1 (no mojibake)
    const rows = await t.db.kysely.selectFrom('accounts').select(['email', 'first_name', 'last_name', 'phone', 'provider']).where('type', '=', 'user').execute();
    const nul = rows.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.includes('\u0000')));
    expect.soft(nul).toEqual([]);
    expect.soft(rows.filter((r) => r.first_name === 'Jürgen' && r.last_name === 'Müller-Lüdenscheidt').length, 'the Latin-1 file read as Latin-1').toBe(1);

    // the export: parsed quote-aware, every cell checked, then re-imported as is (dry run) without failures
    const exp = await t.app.inject({ method: 'GET', url: '/api/admin/users/export', headers: { authorization: adminAuth } });
    expect(exp.statusCode).toBe(200);
    const cells = parse(exp.rawPayload, { bom: true, relax_column_count: false }) as string[][];
    expect(cells.length).toBeGreaterThan(50);
    const dangerous = cells.flatMap((r, i) => r.filter((c) => canStartFormula(c)).map((c) => `row ${i}: ${JSON.stringify(c).slice(0, 80)}`));
    expect.soft(dangerous).toEqual([]);
    const back = multipart('file', 'export.csv', exp.rawPayload, 'text/csv');
    const re = await t.app.inject({ method: 'POST', url: '/api/admin/users/import?dry_run=true', payload: back.payload, headers: { ...back.headers, authorization: adminAuth } });
    expect.soft(re.statusCode).toBe(200);
    expect.soft(re.json<{ data: { failed: unknown[]; created: number } }>().data).toMatchObject({ failed: [], created: 0 });
    console.info(`[corpus ${t.kind}] ${files.length} CSV files (statuses ${JSON.stringify(Object.fromEntries(tally))}), ${rows.length} users stored, ${cells.length - 1} rows exported, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
}, RAISED);
