import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actors, multipart, type Actors } from './fixtures';
import { escapeCell } from '../../../server/services/admin/csv';

describeEachDb('admin users import and export', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });
  const upload = (csv: string | Buffer, query = '', headers: Record<string, string> = {}, fields: Record<string, string> = {}) => {
    const m = multipart('file', 'users.csv', csv, 'text/csv', fields);
    return get().app.inject({ method: 'POST', url: `/api/admin/users/import${query}`, headers: { ...who.superAdmin.headers, ...m.headers, ...headers }, payload: m.payload });
  };

  it('dry run reports per-row errors and writes nothing; BOM and semicolons are understood', async () => {
    const csv = '\ufeffemail;first_name;last_name;locale;auth_type;provider;technical;phone\n' +
      'ok1@import.test;Anna;Muster;de;CREDENTIALS;;false;+41790000001\n' +
      'bad-mail;Anna;Muster;de;CREDENTIALS;;;\n' +
      'ok2@import.test;"Jean; Luc";Picard;FR;credentials;;yes;\n' +
      'ok1@import.test;Dup;Row;en;CREDENTIALS;;;\n' +
      'sso@import.test;S;O;en;SSO;;;\n' +
      'x@import.test;X;Y;es;CREDENTIALS;;maybe;123\n';
    const res = await upload(csv, '?dry_run=true');
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    expect(r).toMatchObject({ total: 6, created: 2, dry_run: true });
    expect(r.skipped).toEqual([{ row: 5, email: 'ok1@import.test', reason: 'duplicate_in_file' }]);
    expect(r.failed).toEqual([
      // the row's e-mail as written, so the report can say which account a bad row was meant to be
      { row: 3, email: 'bad-mail', fields: { email: ['email'] } },
      { row: 6, email: 'sso@import.test', fields: { provider: ['provider_required'] } },
      { row: 7, email: 'x@import.test', fields: { locale: ['invalid'], technical: ['invalid'], phone: ['invalid'] } },
    ]);
    const found = await get().app.inject({ method: 'GET', url: '/api/admin/users?search=import.test', headers: who.superAdmin.headers });
    expect(found.json().meta.total).toBe(0);
  });

  it('imports valid rows, skips existing e-mails, and an exported file imports back', async () => {
    const csv = 'email,first_name,last_name,locale,auth_type,provider,technical,phone\n' +
      'imp1@import.test,Imp,One,en,CREDENTIALS,,,\n' +
      'imp2@import.test,Imp,Two,it,CREDENTIALS,,true,+390612345\n' +
      'broken@,Imp,Three,it,CREDENTIALS,,,\n';
    const res = await upload(csv, '', {}, { send_invitations: 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 3, created: 2, skipped: [], invitations_queued: 2 });
    expect(res.json().data.failed[0].row).toBe(4);
    const again = await upload(csv);
    expect(again.json().data.created).toBe(0);
    expect(again.json().data.skipped.map((s: { reason: string }) => s.reason)).toEqual(['email_taken', 'email_taken']);
    const list = await get().app.inject({ method: 'GET', url: '/api/admin/users?search=imp', headers: who.manager.headers });
    expect(list.json().meta.total).toBe(2);
    const imp2 = list.json().data.find((u: { email: string }) => u.email === 'imp2@import.test');
    expect(imp2).toMatchObject({ technical: true, phone: '+390612345', locale: 'it', created_by: who.superAdmin.account.id });
  });

  it('runs big files as a job with progress readable from the database', async () => {
    const lines = ['email,first_name,last_name,locale,auth_type'];
    for (let i = 0; i < 2500; i++) lines.push(`job${i}@job.test,Job,Row${i},en,CREDENTIALS`);
    const res = await upload(lines.join('\r\n'), '?async=true');
    expect(res.statusCode).toBe(202);
    const jobId = res.json().data.job_id;
    let job = { status: 'running', processed: 0, created: 0, report: null as null | { created: number } };
    for (let i = 0; i < 200 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await get().app.inject({ method: 'GET', url: `/api/admin/users/import/${jobId}`, headers: who.manager.headers })).json().data;
    }
    expect(job).toMatchObject({ status: 'done', processed: 2500, created: 2500 });
    expect(job.report?.created).toBe(2500);
    expect((await get().app.inject({ method: 'GET', url: '/api/admin/users/import/nope', headers: who.manager.headers })).statusCode).toBe(404);
  });

  it("refuses unreadable files with 'The file cannot be imported' (localized) and requires the file", async () => {
    const noHeader = await upload('a@b.c,A,B,en,CREDENTIALS\n', '', { locale: 'it' });
    expect(noHeader.statusCode).toBe(422);
    expect(noHeader.json().error).toMatchObject({ code: 'users_import_failed', message: 'Il file non può essere importato' });
    const broken = await upload('email,first_name\n"unterminated,x\n');
    expect(broken.statusCode).toBe(422);
    expect(broken.json().error.code).toBe('users_import_failed');
    const json = await get().app.inject({ method: 'POST', url: '/api/admin/users/import', headers: who.superAdmin.headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(422);
    const wrongField = multipart('upload', 'u.csv', 'email\n');
    const r = await get().app.inject({ method: 'POST', url: '/api/admin/users/import', headers: { ...who.superAdmin.headers, ...wrongField.headers }, payload: wrongField.payload });
    expect(r.statusCode).toBe(422);
  });

  it('exports the filtered users as CSV with formula cells escaped', async () => {
    const evil = await get().app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: who.superAdmin.headers,
      payload: { email: 'evil@export.test', first_name: '=HYPERLINK("http://x")', last_name: '@SUM(A1)', locale: 'en', auth_type: 'CREDENTIALS' },
    });
    expect(evil.statusCode).toBe(201);
    const res = await get().app.inject({ method: 'GET', url: '/api/admin/users/export?search=export.test', headers: who.manager.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="users-/);
    const lines = res.body.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    // every cell quoted (OWASP CSV injection guidance; see csv-injection.test.ts)
    expect(lines[0]).toBe('"id","email","first_name","last_name","locale","auth_type","provider","technical","phone","status","created_at","updated_at"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(lines[1]).toContain(`'@SUM(A1)`);
    expect(lines[1]).not.toMatch(/,=HYPERLINK|,"=HYPERLINK|,@SUM/);
    for (const c of ['=1', '+1', '-1', '@x', '\tx', '\rx']) expect(escapeCell(c)).toBe(`'${c}`);
    expect(escapeCell('plain')).toBe('plain');
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
