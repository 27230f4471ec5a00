import { expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { createImportService, importJobsSettled } from '../../../server/services/admin/import';
import type { Actor } from '../../../server/services/deps';

/**
 * The import service runs on its dependencies and an Actor (plain values): no request, no FastifyInstance. A job
 * started this way outlives any request, records who started it and audits each batch in that actor's name.
 */
describeEachDb('users import service: deps + Actor, no request', (get) => {
  it('runs a job from deps and an Actor alone; the job and its audit entries carry the actor', async () => {
    const t = get();
    const admin = await createAccount(t, { type: 'admin', email: 'importer@example.com', admin_role: 'manager' });
    const actor: Actor = { id: admin.id, email: admin.email, ip: '203.0.113.7' };
    const service = createImportService(t.app.deps);
    const csv = ['email,first_name,last_name,locale,auth_type', 'svc.a@import.test,Ada,A,en,CREDENTIALS', 'svc.b@import.test,Bea,B,de,SSO', 'bad,X,Y,en,CREDENTIALS'].join('\n');
    const parsed = await service.read(Buffer.from(csv));

    const answer = await service.importFile(actor, parsed, { dryRun: false, sendInvitations: false, async: true });
    expect(answer.kind).toBe('job');
    if (answer.kind !== 'job') return;
    await importJobsSettled(t.app.deps);

    const job = await service.job(answer.jobId, (code) => `message of ${code}`);
    // the SSO row names no provider: refused like the invalid e-mail
    expect(job).toMatchObject({ status: 'done', total: 3, processed: 3, created: 1, failed: 2, error: null });
    expect(job.report).toMatchObject({ created: 1, failed_count: 2, dry_run: false });
    const row = await t.db.kysely.selectFrom('import_jobs').select(['actor_id', 'owner']).where('id', '=', answer.jobId).executeTakeFirstOrThrow();
    expect(row).toEqual({ actor_id: admin.id, owner: null });
    const created = await t.db.kysely.selectFrom('accounts').select('created_by').where('email_normalized', '=', 'svc.a@import.test').executeTakeFirstOrThrow();
    expect(created.created_by).toBe(admin.id);
    const audit = await t.db.kysely.selectFrom('audit_log').select(['actor_id', 'actor_email', 'ip_address']).where('action', '=', 'user.import').where('actor_id', '=', admin.id).execute();
    expect(audit).toEqual([{ actor_id: admin.id, actor_email: admin.email, ip_address: '203.0.113.7' }]);
  });

  it('a job that fails reports its error in the words of the given translation', async () => {
    const t = get();
    const service = createImportService(t.app.deps);
    const now = new Date().toISOString();
    const id = `failed-${Date.now()}`;
    await t.db.kysely
      .insertInto('import_jobs')
      .values({
        id, actor_id: null, status: 'failed', dry_run: 0, send_invitations: 0, total: 1, processed: 0, created: 0, skipped_count: 0, failed_count: 0,
        report: null, error_code: 'users_import_failed', created_at: now, updated_at: now, finished_at: now, owner: null, heartbeat_at: null, lease_until: 0,
      })
      .execute();
    expect((await service.job(id, (code) => `«${code}»`)).error).toEqual({ code: 'users_import_failed', message: '«users_import_failed»' });
    await expect(service.job('no-such-job', (code) => code)).rejects.toMatchObject({ status: 404, code: 'import_job_not_found' });
  });
});
