import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, NewAccount } from '../db/schema';
import { nowIso } from '../db/index';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const searchTextOf = (a: { email: string; first_name: string; last_name: string }) =>
  `${a.email} ${a.first_name} ${a.last_name}`.toLowerCase();

export type AccountInput = Omit<NewAccount, 'id' | 'email_normalized' | 'search_text' | 'created_at' | 'updated_at'> & { id?: string };

/** Builds a full accounts row with derived columns (normalized e-mail, search text, timestamps). */
export function accountRow(input: AccountInput): NewAccount {
  const now = nowIso();
  return {
    ...input,
    id: input.id ?? randomUUID(),
    email: input.email.trim(),
    email_normalized: normalizeEmail(input.email),
    search_text: searchTextOf({ email: input.email.trim(), first_name: input.first_name ?? '', last_name: input.last_name ?? '' }),
    created_at: now,
    updated_at: now,
  };
}

export async function findAccountByEmail(db: Kysely<Database>, type: 'user' | 'admin', email: string) {
  return db.selectFrom('accounts').selectAll().where('type', '=', type).where('email_normalized', '=', normalizeEmail(email)).executeTakeFirst();
}
