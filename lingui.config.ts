import { defineConfig } from '@lingui/conf';
import { LOCALES, SOURCE_LOCALE } from './contract/locales';

/**
 * Catalogs are split by area, like the code (see docs/CONVENTIONS.md):
 *  - common:  shared components, lib, root route, layouts, error pages
 *  - account: public and user-area routes and src/features/account
 *  - admin:   admin routes and src/features/admin
 * en is the source locale and the fallback; the locale list is contract/locales.ts.
 */
export default defineConfig({
  sourceLocale: SOURCE_LOCALE,
  locales: [...LOCALES],
  fallbackLocales: { default: SOURCE_LOCALE },
  format: 'po',
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
      include: ['<rootDir>/src/routes/_public', '<rootDir>/src/routes/_user', '<rootDir>/src/features/account'],
    },
    {
      path: '<rootDir>/locales/{locale}/admin',
      include: ['<rootDir>/src/routes/admin', '<rootDir>/src/features/admin'],
    },
  ],
});
