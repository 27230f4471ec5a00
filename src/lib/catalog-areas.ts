/**
 * Which message catalogs a page needs (lingui.config.ts splits them like the code). src/lib/i18n.ts loads, for the
 * URL being shown, these catalogs of the active locale and no others; bench/web.ts and tests/build/first-load.test.ts
 * read the same map. Pure: no imports, so lingui.config.ts can use it too.
 */

/**
 * Console page groups with a catalog of their own, locales/<locale>/admin-<area>: the folder
 * src/features/admin/<area> holds their screens.
 */
export const ADMIN_PAGE_AREAS = ['dashboard', 'users', 'catalog', 'admins'] as const;

/** The console's page paths (/admin/<first segment>) whose screens come from one admin area. */
const ADMIN_PAGES: Record<string, (typeof ADMIN_PAGE_AREAS)[number]> = {
  dashboard: 'dashboard',
  'user-management': 'users',
  'user-information': 'users',
  roles: 'catalog',
  'service-apps': 'catalog',
  subscriptions: 'catalog',
  // the second-factor requirement, set per role (src/features/admin/catalog/second-factor-settings.tsx)
  settings: 'catalog',
  'admin-management': 'admins',
};

/** Console pages whose screens are account screens (sign-in, password links, first set-up, own profile). */
const ADMIN_ACCOUNT_PAGES = new Set(['login', 'reset-password', 'setup', 'profile']);

/**
 * The user area's screens (home, profile), catalog account-user: the sign-in and password pages do not load their
 * messages (about a third of the account messages).
 */
export const ACCOUNT_USER_FOLDERS = ['src/features/account/home', 'src/features/account/profile'] as const;

/** The pages that show the user area's screens: / (home), /profile, and the console's own /admin/profile. */
const USER_PAGES = new Set(['', 'profile']);

/**
 * Catalogs a page loads when a part of it first needs them, not with the page (src/lib/i18n.ts: loadCatalogs), each
 * from one folder: admin-error-codes, the words for the ~80 error codes of the dashboard's error log
 * (src/features/admin/dashboard/error-codes), off the dashboard's first load (issue 29).
 */
export const ON_DEMAND_CATALOGS = { 'admin-error-codes': 'src/features/admin/dashboard/error-codes' } as const;
export type OnDemandCatalog = keyof typeof ON_DEMAND_CATALOGS;

/** Every catalog name (tests, and the SPA before it knows the page: all of them). */
export const ALL_CATALOGS: readonly string[] = ['common', 'account', 'account-user', 'admin', ...ADMIN_PAGE_AREAS.map((area) => `admin-${area}`), ...Object.keys(ON_DEMAND_CATALOGS)];

/**
 * The catalogs a URL's page shows strings from: common everywhere; account outside the console and on its account
 * screens, with account-user on the user area's pages (home, profile); on the console (/admin/…) admin, plus the
 * page's own area.
 */
export function catalogsForPath(pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  if (segments[0] !== 'admin') return segments.length <= 1 && USER_PAGES.has(segments[0] ?? '') ? ['common', 'account', 'account-user'] : ['common', 'account'];
  const page = segments[1] ?? '';
  if (page === 'profile') return ['common', 'account', 'account-user', 'admin'];
  if (ADMIN_ACCOUNT_PAGES.has(page)) return ['common', 'account', 'admin'];
  const area = ADMIN_PAGES[page];
  return area ? ['common', 'admin', `admin-${area}`] : ['common', 'admin'];
}
