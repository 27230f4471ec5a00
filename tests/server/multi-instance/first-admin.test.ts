import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../helpers/app';
import { startCluster, type Cluster } from '../../helpers/cluster';
import { bootstrapFirstAdmin } from '../../../server/services/bootstrap';

/**
 * Issue 30.7: instances starting together on an empty database each run the first-admin bootstrap (server/main.ts);
 * one creates the super_admin, and only that one says so (`created`, logged as "created the first super_admin").
 */
for (const kind of DB_KINDS) {
  describe(`first super_admin with three instances starting at once (${kind})`, () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster({ kind, redis: false, env: { IAM_ADMIN_EMAIL: 'root@example.com', IAM_ADMIN_PASSWORD: 'Quartz-Lantern-93!x' } });
    }, 60_000);
    afterAll(async () => cluster?.close());

    it('one account, one "created"', async () => {
      const results = await Promise.all(cluster.nodes.map((n) => bootstrapFirstAdmin(n.app)));
      expect(results.filter((r) => r.created === 'root@example.com')).toHaveLength(1);
      expect(results.filter((r) => Object.keys(r).length === 0)).toHaveLength(cluster.nodes.length - 1);
      const admins = await cluster.nodes[0]!.db.kysely.selectFrom('accounts').select('email').where('type', '=', 'admin').execute();
      expect(admins).toEqual([{ email: 'root@example.com' }]);
    }, 60_000);
  });
}
