import pg from 'pg';
import { accountRow } from '../../server/services/accounts';

/**
 * A plain connection to `schema` with a short lock timeout: a statement that would wait on a lock fails (55P03)
 * instead of waiting. For tests that prove a migration step does not block writes.
 */
export async function lockTimeoutClient(url: string, schema: string, lockTimeoutMs = 2000): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema} -c lock_timeout=${lockTimeoutMs}` });
  await c.connect();
  return c;
}

/** One statement on its own connection (create/drop a test database through the server's maintenance database). */
export async function pgQueryOnce(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Inserts one user account row through `c` (outside the app): `email` and the filter columns as given. */
export async function insertAccountRow(c: pg.Client, fields: { email: string; locale?: string; status?: 'ACTIVE' | 'INACTIVE' }): Promise<void> {
  const row = accountRow({ type: 'user', email: fields.email, first_name: 'On', last_name: 'Line', locale: fields.locale ?? 'en', status: fields.status ?? 'ACTIVE', auth_type: 'CREDENTIALS', technical: 0 });
  const cols = Object.keys(row);
  await c.query(`insert into accounts (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
}
