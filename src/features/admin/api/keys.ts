/** Query keys of the admin back office; every list/detail lives under ['admin', <resource>]. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => ['admin', 'users'] as const,
  userList: (filters: object) => ['admin', 'users', 'list', filters] as const,
  user: (id: string) => ['admin', 'users', 'detail', id] as const,
  importJob: (jobId: string) => ['admin', 'users', 'import', jobId] as const,
  admins: () => ['admin', 'admins'] as const,
  adminList: (filters: object) => ['admin', 'admins', 'list', filters] as const,
  roles: () => ['admin', 'roles'] as const,
  roleList: (filters: object) => ['admin', 'roles', 'list', filters] as const,
  subscriptions: () => ['admin', 'subscriptions'] as const,
  subscriptionList: (filters: object) => ['admin', 'subscriptions', 'list', filters] as const,
  serviceApps: () => ['admin', 'service-apps'] as const,
  serviceAppList: (filters: object) => ['admin', 'service-apps', 'list', filters] as const,
  logs: () => ['admin', 'logs'] as const,
  activities: (filters: object) => ['admin', 'logs', 'activities', filters] as const,
  daily: (days: number) => ['admin', 'logs', 'daily', days] as const,
  errors: (filters: object) => ['admin', 'logs', 'errors', filters] as const,
  audit: (filters: object) => ['admin', 'logs', 'audit', filters] as const,
  config: () => ['config'] as const,
};

/** Drops undefined/empty values so the query string and the cache key stay minimal. */
export function compactQuery<T extends object>(filters: T): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = typeof value === 'number' ? value : String(value);
  }
  return out;
}
