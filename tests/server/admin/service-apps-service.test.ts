import { expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createServiceAppsService, getClientSecret } from '../../../server/services/admin/service-apps';
import type { Actor, Clock } from '../../../server/services/deps';

/** The service-apps service built from its dependencies alone (no Fastify app, no request): clock and actor come in as values. */
describeEachDb('service apps service', (get) => {
  const at = '2030-05-06T07:08:09.000Z';
  const clock: Clock = { now: () => new Date(at), nowIso: () => at };
  const actor: Actor = { id: null, email: 'ops@example.com', ip: '203.0.113.9' };
  const service = () => createServiceAppsService({ db: get().db, config: get().config, clock });

  it('creates, rotates and deletes an app, timestamps from the clock, audited under the actor', async () => {
    const created = await service().create(actor, { name: 'svc-app', display_name: 'Svc', url: 'https://svc.example', path: '/cb', role_ids: [], client_type: 'confidential' });
    expect(created).toMatchObject({ name: 'svc-app', client_type: 'confidential', created_at: at, updated_at: at, token_endpoint_auth_method: 'client_secret_basic' });
    expect(created.oidc).toMatchObject({ issuer: get().config.issuer, redirect_uri: 'https://svc.example/cb', discovery_url: `${get().config.issuer}/.well-known/openid-configuration` });
    const row = await get().db.kysely.selectFrom('service_apps').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(created.client_secret).toBeTruthy();
    expect(row.client_secret).not.toBe(created.client_secret);
    expect(await getClientSecret({ db: get().db }, row)).toBe(created.client_secret);

    const rotated = await service().update(actor, created.id, { regenerate_secret: true });
    expect(rotated.client_secret).toBeTruthy();
    expect(rotated.client_secret).not.toBe(created.client_secret);
    expect(await service().get(created.id)).not.toHaveProperty('client_secret');

    expect(await service().delete(actor, created.id)).toEqual({ id: created.id, deleted: true });
    await expect(service().get(created.id)).rejects.toMatchObject({ status: 404, code: 'service_app_not_found' });

    const audit = await get().db.kysely.selectFrom('audit_log').selectAll().where('target_id', '=', created.id).orderBy('action').execute();
    expect(audit.map((a) => [a.action, a.actor_email, a.ip_address, a.created_at])).toEqual([
      ['service_app.create', 'ops@example.com', '203.0.113.9', at],
      ['service_app.delete', 'ops@example.com', '203.0.113.9', at],
      ['service_app.update', 'ops@example.com', '203.0.113.9', at],
    ]);
    expect(audit.every((a) => !`${a.before ?? ''}${a.after ?? ''}`.includes(String(created.client_secret)))).toBe(true);
  });

  it('lists by client id or display name', async () => {
    await service().create(actor, { name: 'alpha-app', display_name: 'Zeta Portal', url: 'https://a.example', path: '/cb', role_ids: [] });
    await service().create(actor, { name: 'beta-app', display_name: 'Beta', url: 'https://b.example', path: '/cb', role_ids: [] });
    expect((await service().list({ search: 'Zeta', page: 1, size: 10 })).rows.map((a) => a.name)).toEqual(['alpha-app']);
    const all = await service().list({ page: 1, size: 1 });
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.rows).toHaveLength(1);
  });
});
