import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * better-sqlite3 behind kysely with its prepared statements kept (kysely prepares every query anew; preparing is
 * most of a small query's cost): one statement per distinct SQL text, the `max` most recently used (LRU). kysely's
 * SqliteDriver runs one statement at a time on the single connection, inside transactions too (BEGIN/COMMIT are
 * statements like the others), and picks `all` or `run` by the statement's `reader` flag, which a cached statement
 * keeps. A statement still iterating (a streamed query) is busy: a second use of the same SQL meanwhile gets a
 * statement of its own. A statement whose run failed stays usable (better-sqlite3 resets it); SQL that fails to
 * prepare is never cached.
 */
export function cachedStatements(db: SQLite.Database, max = 500): SqliteDatabase & { readonly size: number } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    get size() {
      return cache.size;
    },
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit) {
        if (hit.busy) return db.prepare(text);
        // most recently used last: Map keeps insertion order
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const stmt = db.prepare(text);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(text, stmt);
      return stmt;
    },
  };
}
