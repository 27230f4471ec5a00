/**
 * One place defines every React Query key (src/api/query-keys.ts), and two query options that share a key fetch the
 * same data. Issue 29: `configQueryOptions` cached GET /api/config's object under ['config'] while
 * `ssoProvidersQueryOptions` cached its providers array under the same key; after a sign-in (which fills the config)
 * "Add user" read the object as an array and crashed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { hashKey, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../src/api/query-keys';

interface Options {
  queryKey: QueryKey;
  queryFn?: unknown;
}

/** Every module of src/ that exports query options: src/api/*.ts and src/features/<area>/api/*.ts. */
const modules = import.meta.glob<Record<string, unknown>>(['/src/api/*.ts', '/src/features/**/api/*.ts', '!/src/**/*.test.ts'], { eager: true });

/** Arguments to call each factory with: two sets where the factory takes some, so keys built from arguments show. */
const SAMPLE_ARGS: Record<string, unknown[][]> = {
  currentUserQueryOptions: [[]],
  currentAdminQueryOptions: [[]],
  currentAccountQueryOptions: [['user'], ['admin']],
  languagesQueryOptions: [[]],
  configQueryOptions: [[]],
  ssoProvidersQueryOptions: [[]],
  setupLinkQueryOptions: [['token-a'], [undefined]],
  usersQueryOptions: [[{ page: 1, size: 20 }], [{ page: 2, size: 20, search: 'ada' }]],
  userQueryOptions: [['u1']],
  importJobQueryOptions: [['job-1']],
  rolesQueryOptions: [[], [{ page: 2, size: 10 }]],
  subscriptionsQueryOptions: [[], [{ page: 2, size: 10 }]],
  serviceAppsQueryOptions: [[], [{ page: 2, size: 10 }]],
  adminsQueryOptions: [[{ page: 1, size: 20 }]],
  activitiesQueryOptions: [[{ page: 1, size: 20 }]],
  dailySignInsQueryOptions: [[], [7]],
  errorLogsQueryOptions: [[{ page: 1, size: 20 }]],
  auditQueryOptions: [[{ page: 1, size: 20 }]],
  userPasskeysQueryOptions: [['u1'], ['u2']],
  secondFactorPolicyQueryOptions: [[]],
};

interface Made {
  factory: string;
  options: Options;
}

function factories(): Array<[string, (...args: unknown[]) => Options]> {
  const found = new Map<string, (...args: unknown[]) => Options>();
  for (const [path, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!/QueryOptions$/.test(name) || typeof value !== 'function') continue;
      found.set(`${name}`, value as (...args: unknown[]) => Options);
      expect(path).toBeTruthy();
    }
  }
  return [...found];
}

/**
 * The rule: options made by different factories under one key must share their queryFn (the same data in the
 * cache; they may differ by `select`). Returns the keys that break it.
 */
export function conflictingKeys(made: readonly Made[]): string[] {
  const byKey = new Map<string, Made[]>();
  for (const entry of made) {
    const hash = hashKey(entry.options.queryKey);
    byKey.set(hash, [...(byKey.get(hash) ?? []), entry]);
  }
  const conflicts: string[] = [];
  for (const [hash, entries] of byKey) {
    const fromOthers = entries.filter((entry) => entry.factory !== entries[0]!.factory);
    if (fromOthers.some((entry) => entry.options.queryFn !== entries[0]!.options.queryFn)) {
      conflicts.push(`${hash}: ${[...new Set(entries.map((entry) => entry.factory))].join(', ')}`);
    }
  }
  return conflicts;
}

function makeAll(): Made[] {
  const made: Made[] = [];
  for (const [name, factory] of factories()) {
    const argSets = SAMPLE_ARGS[name];
    // a new factory needs its sample arguments here, so that this test sees its keys
    expect(argSets, `SAMPLE_ARGS lacks ${name}`).toBeDefined();
    for (const args of argSets ?? []) made.push({ factory: name, options: factory(...args) });
  }
  return made;
}

describe('React Query keys', () => {
  it('finds every query-option factory of src/ (and has sample arguments for each)', () => {
    const names = factories().map(([name]) => name);
    expect(names.sort()).toEqual(Object.keys(SAMPLE_ARGS).sort());
  });

  it('two query options that share a key fetch the same data (same queryFn; `select` may narrow it)', () => {
    expect(conflictingKeys(makeAll())).toEqual([]);
  });

  it('the check catches the issue-29 pair: the config object and an SSO-providers array under one key', () => {
    const configFn: QueryFunction = async () => ({ sso_providers: [] });
    const providersFn: QueryFunction = async () => [];
    const made: Made[] = [
      { factory: 'configQueryOptions', options: { queryKey: ['config'], queryFn: configFn } },
      { factory: 'ssoProvidersQueryOptions', options: { queryKey: ['config'], queryFn: providersFn } },
    ];
    expect(conflictingKeys(made)).toEqual(['["config"]: configQueryOptions, ssoProvidersQueryOptions']);
  });

  it("every factory's key is one of src/api/query-keys.ts's", () => {
    const roots = new Set<unknown>(
      [queryKeys.account.all, queryKeys.languages(), queryKeys.config(), queryKeys.setupLink('x'), queryKeys.admin.all].map((key) => key[0]),
    );
    for (const { factory, options } of makeAll()) expect(roots.has(options.queryKey[0]), `${factory}: ${hashKey(options.queryKey)}`).toBe(true);
  });

  it('no query key is written outside src/api/query-keys.ts (no array or string literal after `queryKey:`)', () => {
    const root = join(__dirname, '../../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !name.endsWith('.gen.ts')) files.push(path);
      }
    };
    walk(root);
    const offenders = files
      .filter((file) => !file.endsWith(join('api', 'query-keys.ts')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, index }))
          .filter(({ line }) => /queryKey\s*:\s*[[`'"]/.test(line))
          .map(({ index }) => `${relative(root, file)}:${index + 1}`),
      );
    expect(offenders).toEqual([]);
  });
});
