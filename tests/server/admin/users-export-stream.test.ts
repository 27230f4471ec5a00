import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { seedUsers } from '../../../server/cli/seed';
import { accountRow } from '../../../server/services/accounts';
import { EXPORT_BATCH, exportUsersCsv } from '../../../server/services/admin/csv';
import { actors, type Actors } from './fixtures';

/**
 * The CSV export streams (issue 15): keyset batches of EXPORT_BATCH rows, pulled by the reader (a reader that
 * stops reading stops the queries), every row exactly once in list order, header and BOM once, formula cells
 * escaped in every batch.
 */
describeEachDb('admin users export: streamed in batches', (get) => {
  let who: Actors;
  const USERS = EXPORT_BATCH * 2 + 7;

  beforeAll(async () => {
    who = await actors(get());
    await seedUsers(get().db, { users: USERS, tx: 5000 });
    // a formula cell deep in the list (oldest: the last batch)
    const evil = accountRow({ type: 'user', email: 'deep@stream.test', first_name: '=1+1', last_name: 'x;@SUM(A1)', locale: 'en', auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0 });
    await get().db.kysely.insertInto('accounts').values({ ...evil, created_at: '2000-01-01T00:00:00.000Z', updated_at: '2000-01-01T00:00:00.000Z' }).execute();
  });

  it('exports every user once, newest first, across batches, with one header and escaped formulas', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/admin/users/export', headers: who.manager.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.body;
    expect(text.startsWith('\ufeff"id","email"')).toBe(true);
    expect(text.match(/\ufeff/g)).toHaveLength(1);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    const total = Number((await get().db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('type', '=', 'user').executeTakeFirstOrThrow()).n);
    expect(rows).toHaveLength(total);
    expect(rows.length).toBeGreaterThan(EXPORT_BATCH * 2);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const keys = rows.map((r) => `${r.created_at}|${r.id}`);
    expect([...keys].sort().reverse()).toEqual(keys);
    const deep = rows.at(-1);
    expect(deep).toMatchObject({ email: 'deep@stream.test', first_name: "'=1+1", last_name: "x;'@SUM(A1)", status: 'INVITED', technical: 'false' });
    // the filtered export walks its own index the same way
    const fr = await get().app.inject({ method: 'GET', url: '/api/admin/users/export?locale=fr&search=example', headers: who.manager.headers });
    const frRows = parse(fr.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(frRows.length).toBeGreaterThan(0);
    expect(frRows.every((r) => r.locale === 'fr' && r.email.includes('example'))).toBe(true);
    expect(new Set(frRows.map((r) => r.id)).size).toBe(frRows.length);
  });

  it('answers the header alone when nothing matches', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/admin/users/export?search=no-such-user-anywhere', headers: who.manager.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('\ufeff"id","email","first_name","last_name","locale","auth_type","provider","technical","phone","status","created_at","updated_at"\n');
  });

  it('reads the next batch only when the reader asks for it (backpressure: memory stays at about one batch)', async () => {
    const stream = exportUsersCsv(get().db, {});
    const chunks: string[] = [];
    stream.on('data', (c: Buffer | string) => {
      chunks.push(c.toString());
      stream.pause();
    });
    await sleep(300);
    // the reader took one chunk and paused: the stream holds at most what fills its buffer, not the export
    expect(chunks).toHaveLength(1);
    const firstChunk = chunks[0] ?? '';
    expect(firstChunk.split('\n').length - 2).toBe(EXPORT_BATCH);
    expect(stream.readableLength).toBeLessThanOrEqual(2 * firstChunk.length);
    let lines = firstChunk.split('\n').length - 1;
    stream.removeAllListeners('data');
    for await (const c of stream) lines += (c as Buffer | string).toString().split('\n').length - 1;
    const total = Number((await get().db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('type', '=', 'user').executeTakeFirstOrThrow()).n);
    expect(lines).toBe(total + 1);
  });
});
