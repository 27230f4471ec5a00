/**
 * Every React Query key of the SPA, in one place. A key names one piece of server data of one shape: two query
 * options that share a key must fetch the same data (the same queryFn), and may differ only by `select`
 * (tests/spa/query-keys.test.ts checks every query-option factory of src/ against this rule, and that no query key
 * is written anywhere else).
 *
 * - ['account', …]: the signed-in account (reset together on logout or a language change)
 * - ['languages'], ['config']: app-wide public data (GET /api/languages, GET /api/config)
 * - ['setup', token]: the one-time set-up link check
 * - ['admin', <resource>, …]: the console's lists and details
 */
export const queryKeys = {
  account: {
    all: ['account'] as const,
    user: ['account', 'user'] as const,
    admin: ['account', 'admin'] as const,
  },
  /** GET /api/languages: string[] */
  languages: () => ['languages'] as const,
  /** GET /api/config: the whole public client configuration (OidcClientConfig); narrow it with `select`. */
  config: () => ['config'] as const,
  /** GET /api/setup/{token}: whether the one-time set-up link is valid. */
  setupLink: (token: string | undefined) => ['setup', token ?? ''] as const,
  admin: {
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
  },
};
