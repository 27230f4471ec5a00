import { defineConfig } from '@lingui/conf';
import { LOCALES, SOURCE_LOCALE } from './contract/locales';
import { ACCOUNT_USER_FOLDERS, ADMIN_PAGE_AREAS, ON_DEMAND_CATALOGS } from './src/lib/catalog-areas';

/**
 * Catalogs are split by area, like the code (see docs/CONVENTIONS.md):
 *  - common:  shared components, lib, root route, layouts, error pages
 *  - account: public routes and src/features/account but the user area's screens (sign-in, password links, set-up)
 *  - account-user: the user area, src/routes/_user and src/features/account/{home,profile} (home and profile, also
 *    the console's /admin/profile): off the sign-in page's first load (BENCHMARKS.md "Step 7")
 *  - admin:   admin routes, the console's shell and shared parts (src/features/admin but its page folders)
 *  - admin-<area>: the screens of one group of console pages, src/features/admin/<area> (ADMIN_PAGE_AREAS in
 *    src/lib/catalog-areas.ts): a page loads only its own (issue 15, BENCHMARKS.md "step 6")
 *  - on-demand catalogs (ON_DEMAND_CATALOGS there), e.g. admin-error-codes: loaded when a part of a page needs them
 * en is the source locale and the fallback; the locale list is contract/locales.ts.
 */
export default defineConfig({
  sourceLocale: SOURCE_LOCALE,
  locales: [...LOCALES],
  fallbackLocales: { default: SOURCE_LOCALE },
  format: 'po',
  // <Trans> macros compile to the product's Trans (src/lib/safe-trans.tsx, aliased in vite.config.ts): values a
  // message interpolates (names, e-mails, anything users type) are shown as text, never read as message markup
  runtimeConfigModule: { Trans: ['lingui-safe-trans', 'Trans'] },
  orderBy: 'messageId',
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/common',
      include: [
        '<rootDir>/src/components',
        '<rootDir>/src/lib',
        '<rootDir>/src/routes/__root.tsx',
        '<rootDir>/src/routes/_public.tsx',
        '<rootDir>/src/routes/_user.tsx',
        '<rootDir>/src/routes/404.tsx',
        '<rootDir>/src/routes/403.tsx',
      ],
    },
    {
      path: '<rootDir>/locales/{locale}/account',
      include: ['<rootDir>/src/routes/_public', '<rootDir>/src/features/account'],
      exclude: ACCOUNT_USER_FOLDERS.map((folder) => `<rootDir>/${folder}/**`),
    },
    {
      path: '<rootDir>/locales/{locale}/account-user',
      include: ['<rootDir>/src/routes/_user', ...ACCOUNT_USER_FOLDERS.map((folder) => `<rootDir>/${folder}`)],
    },
    {
      path: '<rootDir>/locales/{locale}/admin',
      include: ['<rootDir>/src/routes/admin', '<rootDir>/src/features/admin'],
      exclude: ADMIN_PAGE_AREAS.map((area) => `<rootDir>/src/features/admin/${area}/**`),
    },
    ...ADMIN_PAGE_AREAS.map((area) => ({
      path: `<rootDir>/locales/{locale}/admin-${area}`,
      include: [`<rootDir>/src/features/admin/${area}`],
      exclude: Object.values(ON_DEMAND_CATALOGS).map((folder) => `<rootDir>/${folder}/**`),
    })),
    // loaded when a part of a page first needs them (src/lib/catalog-areas.ts: ON_DEMAND_CATALOGS)
    ...Object.entries(ON_DEMAND_CATALOGS).map(([name, folder]) => ({
      path: `<rootDir>/locales/{locale}/${name}`,
      include: [`<rootDir>/${folder}`],
    })),
  ],
});
