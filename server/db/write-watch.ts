import type { KyselyPlugin, OperationNode } from 'kysely';
import type { Db } from './index';

/**
 * The write-watch behind Db.onWrite: a kysely plugin that tells listeners around every statement that may change a
 * row of a watched table (for in-process caches of those rows, server/oidc/auth-cache.ts).
 */
export type WatchedTable = 'accounts' | 'oidc_models' | 'revoked_access_tokens';

const tableName = (node: OperationNode | undefined): string | undefined => {
  if (!node) return undefined;
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  return undefined;
};

/** The watched table a statement may change, if any (see Db.onWrite). */
function writtenTable(node: OperationNode): WatchedTable | undefined {
  if (node.kind === 'UpdateQueryNode') {
    const t = tableName((node as unknown as { table?: OperationNode }).table);
    return t === 'accounts' ? t : undefined;
  }
  if (node.kind === 'DeleteQueryNode') {
    for (const f of (node as unknown as { from: { froms: readonly OperationNode[] } }).from.froms) {
      const t = tableName(f);
      if (t === 'accounts' || t === 'oidc_models') return t;
    }
    return undefined;
  }
  if (node.kind === 'InsertQueryNode') {
    const n = node as unknown as { into?: OperationNode; onConflict?: unknown };
    const t = tableName(n.into);
    if (t === 'revoked_access_tokens') return t;
    return n.onConflict && t === 'accounts' ? 'accounts' : undefined;
  }
  return undefined;
}

/** The kysely plugin behind Db.onWrite. */
export function writeWatch(): { plugin: KyselyPlugin; onWrite: Db['onWrite'] } {
  const listeners = new Set<(table: WatchedTable) => void>();
  const pending = new WeakMap<object, WatchedTable>();
  const tell = (table: WatchedTable) => {
    for (const l of listeners) l(table);
  };
  return {
    plugin: {
      transformQuery({ node, queryId }) {
        if (listeners.size) {
          const table = writtenTable(node);
          if (table) {
            pending.set(queryId, table);
            tell(table);
          }
        }
        return node;
      },
      async transformResult({ result, queryId }) {
        const table = pending.get(queryId);
        if (table) tell(table);
        return result;
      },
    },
    onWrite(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
