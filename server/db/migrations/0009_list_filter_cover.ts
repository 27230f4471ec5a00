import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Admin user list with several filters (issue 15), SQLite: the index of each filter column (type, column,
 * created_at, id) also carries the other filter columns, so a walk of one filter's index checks the others on the
 * index entry instead of reading the 250-byte row (status=INACTIVE + locale=it: 100 000 row reads → none; role +
 * locale + SSO: the role probe is the only lookup left). Same names, same leading columns: every plan that used them
 * still does. PostgreSQL combines its indexes with bitmap ANDs and is left as it was.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
const FILTERS = ['status', 'locale', 'auth_type', 'technical'] as const;

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const name = (c: (typeof FILTERS)[number]) => (c === 'auth_type' ? 'accounts_type_auth_created_idx' : `accounts_type_${c}_created_idx`);

export async function up(db: Kysely<any>): Promise<void> {
  if (await isPostgres(db)) return;
  for (const c of FILTERS) {
    await sql`drop index if exists ${sql.id(name(c))}`.execute(db);
    await db.schema
      .createIndex(name(c))
      .on('accounts')
      .columns(['type', c, 'created_at', 'id', ...FILTERS.filter((o) => o !== c)])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (await isPostgres(db)) return;
  for (const c of FILTERS) {
    await sql`drop index if exists ${sql.id(name(c))}`.execute(db);
    await db.schema.createIndex(name(c)).on('accounts').columns(['type', c, 'created_at', 'id']).execute();
  }
}
