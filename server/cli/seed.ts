/**
 * Seeds realistic users fast: `npm run seed -- --users 1000000 [--batch 1000]`.
 * SQLite in the data dir by default (IAM_DATA_DIR), PostgreSQL when DATABASE_URL is set.
 * Multi-row INSERTs in transactions of `--tx` rows (default 20 000), with a few roles and subscriptions and
 * ~30% of users holding a role through a subscription.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { setImmediate as tick } from 'node:timers/promises';
import { loadConfig } from '../config';
import { createDb, migrateToLatest, type Db } from '../db/index';
import type { NewAccount } from '../db/schema';
import { sql } from 'kysely';

const FIRST = ['Anna', 'Lukas', 'Sophie', 'Noah', 'Emma', 'Luca', 'Mia', 'Leon', 'Chloé', 'Hugo', 'Giulia', 'Marco', 'Olivia', 'Liam', 'Léa', 'Jonas', 'Sara', 'Matteo', 'Laura', 'Paul', 'Elena', 'Felix', 'Camille', 'Louis', 'Francesca', 'David', 'Julia', 'Tom', 'Nina', 'Ben', 'Zoé', 'Elias', 'Alice', 'Jan', 'Marie', 'Alessandro', 'Hannah', 'Gabriel', 'Chiara', 'Max'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Smith', 'Johnson', 'Brown', 'Taylor', 'Wilson', 'Davies', 'Evans', 'Keller', 'Huber', 'Brunner', 'Gerber', 'Baumann', 'Frei', 'Moser', 'Meier', 'Zimmermann'];
const DOMAINS = ['example.com', 'mail.example.org', 'corp.example.net', 'example.ch', 'example.de', 'example.fr', 'example.it'];
const LOCALES = ['en', 'en', 'de', 'de', 'de', 'fr', 'fr', 'it'];

/** Deterministic PRNG so runs are comparable. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedOptions {
  users: number;
  batch?: number;
  tx?: number;
  log?: (msg: string) => void;
}

function strip(s: string) {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export async function ensureCatalog(db: Db): Promise<{ subscriptionId: string; roleIds: string[] }[]> {
  const k = db.kysely;
  const now = new Date().toISOString();
  const roleNames = ['APP_USER', 'APP_ADMIN', 'CRM_READ', 'CRM_WRITE', 'HR_VIEW', 'HR_EDIT'];
  for (const name of roleNames) {
    await k.insertInto('roles').values({ id: randomUUID(), name, description: `${name} role`, created_at: now, updated_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
  }
  const roles = new Map((await k.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const subs: [string, string[]][] = [['BASIC_PLAN', ['APP_USER']], ['CRM_SUITE', ['CRM_READ', 'CRM_WRITE', 'APP_USER']], ['HR_SUITE', ['HR_VIEW', 'HR_EDIT', 'APP_ADMIN']]];
  const out: { subscriptionId: string; roleIds: string[] }[] = [];
  for (const [name, rn] of subs) {
    await k.insertInto('subscriptions').values({ id: randomUUID(), name, description: `${name} subscription`, created_at: now, updated_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const sid = (await k.selectFrom('subscriptions').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const roleIds = rn.map((n) => roles.get(n)).filter((x): x is string => Boolean(x));
    await k.insertInto('subscription_roles').values(roleIds.map((r) => ({ subscription_id: sid, role_id: r }))).onConflict((oc) => oc.columns(['subscription_id', 'role_id']).doNothing()).execute();
    out.push({ subscriptionId: sid, roleIds });
  }
  return out;
}

/** Inserts `users` accounts of type user (ids and e-mails unique per run). Returns the number inserted. */
export async function seedUsers(db: Db, opts: SeedOptions): Promise<number> {
  const batch = opts.batch ?? 1000;
  const txRows = opts.tx ?? 20_000;
  const log = opts.log ?? (() => undefined);
  const catalog = await ensureCatalog(db);
  const rand = rng(42 + Date.now());
  const run = Date.now().toString(36);
  const start = Date.UTC(2022, 0, 1);
  const span = Date.now() - start;
  let done = 0;
  const t0 = Date.now();
  while (done < opts.users) {
    const inTx = Math.min(txRows, opts.users - done);
    await db.kysely.transaction().execute(async (trx) => {
      for (let off = 0; off < inTx; off += batch) {
        const n = Math.min(batch, inTx - off);
        const rows: NewAccount[] = [];
        const assignments: { account_id: string; subscription_id: string; role_id: string; created_at: string }[] = [];
        for (let i = 0; i < n; i++) {
          const seq = done + off + i;
          const first = FIRST[Math.floor(rand() * FIRST.length)] as string;
          const last = LAST[Math.floor(rand() * LAST.length)] as string;
          const email = `${strip(first)}.${strip(last)}.${run}${seq}@${DOMAINS[Math.floor(rand() * DOMAINS.length)]}`;
          const created = new Date(start + Math.floor((seq / opts.users) * span) + Math.floor(rand() * 1000)).toISOString();
          const sso = rand() < 0.1;
          const id = randomUUID();
          rows.push({
            id,
            type: 'user',
            email,
            email_normalized: email,
            first_name: first,
            last_name: last,
            phone: rand() < 0.4 ? `+41${Math.floor(700000000 + rand() * 99999999)}` : null,
            locale: LOCALES[Math.floor(rand() * LOCALES.length)] as string,
            status: rand() < 0.9 ? 'ACTIVE' : 'INACTIVE',
            auth_type: sso ? 'SSO' : 'CREDENTIALS',
            provider: sso ? 'corporate' : null,
            technical: rand() < 0.03 ? 1 : 0,
            email_verified_at: rand() < 0.8 ? created : null,
            search_text: `${email} ${first} ${last}`.toLowerCase(),
            created_at: created,
            updated_at: created,
          });
          if (rand() < 0.3) {
            const sub = catalog[Math.floor(rand() * catalog.length)];
            if (sub) {
              const role = sub.roleIds[Math.floor(rand() * sub.roleIds.length)];
              if (role) assignments.push({ account_id: id, subscription_id: sub.subscriptionId, role_id: role, created_at: created });
            }
          }
        }
        await trx.insertInto('accounts').values(rows).execute();
        if (assignments.length) await trx.insertInto('role_subscriptions').values(assignments).execute();
      }
    });
    done += inTx;
    log(`seeded ${done}/${opts.users} (${Math.round(done / ((Date.now() - t0) / 1000))} rows/s)`);
    await tick();
  }
  return done;
}

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    const v = i >= 0 ? Number(args[i + 1]) : fallback;
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a non-negative integer`);
    return v;
  };
  const users = arg('users', 1000);
  const config = loadConfig();
  // an hour's statement timeout: the closing VACUUM ANALYZE of a million rows takes longer than the server's 5 s
  const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'iam.sqlite'), queryTimeoutMs: 3_600_000 });
  await migrateToLatest(db);
  const t0 = Date.now();
  await seedUsers(db, { users, batch: arg('batch', 1000), tx: arg('tx', 20_000), log: (m) => console.log(m) });
  // PostgreSQL: VACUUM sets the visibility map so list pages are index-only scans without heap fetches
  // (role_subscriptions too: the role filter's plans need its statistics; autovacuum may be off)
  await (db.dialect === 'postgres' ? sql`vacuum analyze accounts, role_subscriptions` : sql`analyze`).execute(db.kysely);
  console.log(`done: ${users} users in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${db.dialect}`);
  await db.close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
