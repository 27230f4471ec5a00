import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actors, multipart, type Actors } from './fixtures';

/**
 * Issue 14 ("server answers thrown away"): an import file with missing columns is refused with the columns it lacks
 * as field errors (`columns.email: required`), which the import dialog shows as "The file has no “email” column"
 * (tests/spa/admin-import.test.tsx mocks exactly this answer) — not a bare "Users import failed".
 */
describeEachDb('users import: a file without required columns names them', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });

  it('answers 422 users_import_failed with columns.<name>: required for each missing column, nothing written', async () => {
    const m = multipart('file', 'users.csv', 'first_name,last_name,locale\nAda,Lovelace,en\n', 'text/csv');
    const res = await get().app.inject({ method: 'POST', url: '/api/admin/users/import?dry_run=false', headers: { ...who.superAdmin.headers, ...m.headers, locale: 'de' }, payload: m.payload });
    expect(res.statusCode).toBe(422);
    const { error } = res.json();
    expect(error.code).toBe('users_import_failed');
    expect(error.fields).toEqual({ 'columns.email': ['required'], 'columns.auth_type': ['required'] });
    const found = await get().db.kysely.selectFrom('accounts').select('id').where('first_name', '=', 'Ada').execute();
    expect(found).toHaveLength(0);
  });
});
