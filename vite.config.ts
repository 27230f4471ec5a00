/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress';

// `npm run dev`: the SPA on IAM_DEV_PORT (5173), /api and /oidc proxied to the server of `npm run dev:api`
// (IAM_DEV_BACKEND), which accepts this origin for sign-in in development (README "Development")
const backend = process.env.IAM_DEV_BACKEND ?? 'http://127.0.0.1:3000';
const devPort = Number(process.env.IAM_DEV_PORT ?? 5173);

export default defineConfig({
  plugins: [
    // Must come before the React plugin so the generated route tree and the
    // code-split route chunks are transformed by React/Babel afterwards.
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      autoCodeSplitting: true,
      // Loaders go with their route's component (one chunk per route): what a loader imports (query options,
      // contract modules) is not in the entry chunk. validateSearch/beforeLoad/staticData stay eager, so the
      // modules they import must be light (e.g. features/admin/*/search.ts, not the screens).
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      quoteStyle: 'single',
      semicolons: true,
    }),
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
    // dist/**/*.{br,gz} next to text assets; server/plugins/app/spa.ts serves them by Accept-Encoding
    precompress(),
  ],
  resolve: {
    alias: {
      'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)),
      // the Trans that <Trans> macros compile to (lingui.config.ts runtimeConfigModule): user values as text
      'lingui-safe-trans': fileURLToPath(new URL('./src/lib/safe-trans.tsx', import.meta.url)),
    },
  },
  server: {
    // the backend accepts exactly this origin (IAM_DEV_ORIGINS): never move to another port silently
    port: devPort,
    strictPort: true,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/oidc': { target: backend, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/oidc': { target: backend, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: bench/web.ts reads the chunk graph from it (the server does not)
    manifest: true,
    rolldownOptions: {
      // Panda's generated recipes and patterns (styled-system/, no package.json of its own) compute their variant keys at
      // top level (`Object.keys(...)`), which the bundler must otherwise keep as side effects: every recipe imported
      // through the `styled-system/recipes` index ended up in the entry chunk. They have none; an unused one is dropped
      // and a lazily used one goes with its chunk.
      treeshake: { moduleSideEffects: [{ test: /[\\/]styled-system[\\/](recipes|patterns)[\\/][^\\/]+\.mjs$/, sideEffects: false }] },
      output: {
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            // the text field and its input with what they import (Ark's field parts and context helpers): every form
            // draws them together. Left to the automatic split, the forms loaded lazily (the user list's add-user
            // dialog) made the input and its helpers chunks of their own: /login +0.3, dashboard +0.7 KB brotli, and
            // without their dependencies the group got worse still (BENCHMARKS.md "The user list's first load")
            { name: 'field-input', test: /[\\/]src[\\/]components[\\/]ui[\\/](field|input)\.tsx$/ },
            // the language picker with what it imports that the entry does not have (react-query's useQuery, the select's
            // recipe), and the copy of a closed select's trigger it shows while its select loads, which the dashboard's
            // filters show too (select-trigger-placeholder.tsx): every page draws the picker, so one chunk instead of
            // three. Left to the automatic split, the shared copy made a fourth chunk on every page (+0.2 KB brotli)
            { name: 'language-picker', test: /[\\/]src[\\/]components[\\/](language-picker|ui[\\/]select-trigger-placeholder)\.tsx$/ },
            // what the console shell imports from src/lib that console pages import too (the current admin, the
            // narrow-viewport hook): one chunk, loaded with the shell. Left to the automatic split, the hook the shell and
            // the user list share made a chunk of its own on every console page (+0.15 KB brotli). Without their
            // dependencies: react-query's useQuery goes with the language picker above
            { name: 'shell-lib', test: /[\\/]src[\\/]lib[\\/](current-admin|use-narrow-viewport)\.ts$/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  test: {
    testTimeout: 30000,
    hookTimeout: 30000,
    fileParallelism: true,
    // Vitest's default is one worker per core less one: a single worker on the 2-core CI machine, where most files
    // wait on PostgreSQL, Redis, child processes, sockets and timers. Two files at a time there (tests/server/oidc + ops:
    // 272 s -> 196 s; admin: 164 s -> 135 s); machines with 3+ cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['./tests/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/build/**/*.test.ts', 'machines/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['tests/spa/**/*.test.{ts,tsx}'],
          setupFiles: ['./tests/spa/setup.ts'],
        },
      },
    ],
  },
});
