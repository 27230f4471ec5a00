import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { startCluster, type Cluster } from '../../helpers/cluster';
import { multipart } from '../admin/fixtures';
import { importAvatarFiles } from '../../../server/services/admin/avatars';

/**
 * Issue 30.2: avatars live in the database, not on the disk of the instance that took the upload. Three instances,
 * each with a data directory of its own (as on three hosts), on one database: an avatar uploaded through one is
 * served by all three over HTTP, and none of them writes it to its disk. The start-up step that moves the files of
 * an older release (importAvatarFiles) copies a file from one instance's disk so that the others serve it too.
 */
const PW = 'Correct-Horse1!x';

for (const kind of DB_KINDS) {
  describe(`avatars across instances (${kind})`, () => {
    let cluster: Cluster;
    const figures: Record<string, number> = {};
    beforeAll(async () => {
      cluster = await startCluster({ kind, redis: false, ownDataDirs: true });
    }, 60_000);
    afterAll(async () => {
      await cluster?.close();
      console.info(`avatar figures (${kind}):`, JSON.stringify(figures));
    });

    const readEverywhere = async (url: string, times: number) => {
      const bodies: Buffer[] = [];
      let ok = 0;
      for (let i = 0; i < times; i++) {
        const node = cluster.nodes[i % cluster.nodes.length];
        const res = await fetch(`${node?.url}${url}`);
        if (res.status === 200) ok++;
        bodies.push(Buffer.from(await res.arrayBuffer()));
      }
      return { ok, bodies };
    };

    it('an avatar uploaded through one instance is served by every instance; no instance writes it to disk', async () => {
      const email = `av-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(cluster.spread, { type: 'user', email, password: PW });
      const tokens = await signIn(cluster.spread, { email, password: PW });
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: 'teal' } }).png().toBuffer();
      const form = multipart('avatar', 'me.png', png, 'image/png');
      const up = await fetch(`${cluster.nodes[0]?.url}/api/user/avatar`, { method: 'POST', body: form.payload, headers: { ...form.headers, authorization: tokens.authorization } });
      expect(up.status).toBe(200);
      const url = ((await up.json()) as { data: { avatar_url: string } }).data.avatar_url;

      const { ok, bodies } = await readEverywhere(url, 30);
      figures.reads_ok = ok;
      figures.reads = 30;
      expect(ok).toBe(30);
      for (const b of bodies) expect(b.equals(bodies[0] ?? Buffer.alloc(0))).toBe(true);
      expect((await sharp(bodies[0]).metadata()).width).toBe(40);
      for (const node of cluster.nodes) expect(existsSync(path.join(node.config.dataDir, 'avatars'))).toBe(false);

      // removed through another instance: gone everywhere
      const del = await fetch(`${cluster.nodes[1]?.url}/api/user/avatar`, { method: 'DELETE', headers: { authorization: tokens.authorization } });
      expect(del.status).toBe(200);
      for (const node of cluster.nodes) expect((await fetch(`${node.url}${url}`)).status).toBe(404);
    }, 60_000);

    it("start-up moves an older release's avatar file from one instance's disk into the database", async () => {
      const email = `avold-${randomUUID().slice(0, 8)}@example.com`;
      const acc = await createAccount(cluster.spread, { type: 'user', email, password: PW });
      // what a release before migration 0014 left: a file on node 1's disk, named by the account row
      const name = `${randomUUID()}.png`;
      const file = await sharp({ create: { width: 12, height: 8, channels: 3, background: 'red' } }).png().toBuffer();
      const node1 = cluster.nodes[1];
      if (!node1) throw new Error('no node');
      mkdirSync(path.join(node1.config.dataDir, 'avatars'), { recursive: true });
      writeFileSync(path.join(node1.config.dataDir, 'avatars', name), file);
      await node1.db.kysely.updateTable('accounts').set({ avatar: name }).where('id', '=', acc.id).execute();
      expect((await fetch(`${cluster.nodes[2]?.url}/api/avatars/${name}`)).status).toBe(404);

      // another instance's disk does not have it: nothing moved, counted as missing
      expect(await importAvatarFiles({ db: cluster.nodes[0]!.db, config: cluster.nodes[0]!.config })).toMatchObject({ moved: 0, missing: 1 });
      expect(await importAvatarFiles({ db: node1.db, config: node1.config })).toEqual({ moved: 1, missing: 0 });
      // idempotent
      expect(await importAvatarFiles({ db: node1.db, config: node1.config })).toEqual({ moved: 0, missing: 0 });
      const { ok, bodies } = await readEverywhere(`/api/avatars/${name}`, 9);
      figures.migrated_reads_ok = ok;
      expect(ok).toBe(9);
      expect(bodies[2]?.equals(file)).toBe(true);
    }, 60_000);
  });
}
