import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { ssoProvidersEnv } from './e2e/sso-upstream';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// A fresh data directory (SQLite, outbox) per run.
const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'iam-e2e-'));
// Workers load this file again: share the one directory with them (specs read the outbox).
process.env.E2E_DATA_DIR = DATA_DIR;

/**
 * The suite can be split by hand into two shards, each against its own server (E2E_PORT) and data directory: `walks`
 * (the statechart walks, e2e/paths.spec.ts) and `rest` (everything else); unset runs all, as CI does (side by side on
 * two cores the shards took as long as one run). Each run needs its own output directory when two run at once
 * (Playwright empties it when a run starts): E2E_OUTPUT_DIR.
 */
const SHARD = process.env.E2E_SHARD;
const OUTPUT_DIR = process.env.E2E_OUTPUT_DIR ?? './test-results';

export const E2E_ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!x' } as const;

export default defineConfig({
  testDir: './e2e',
  // e2e/dev runs against the Vite dev server: playwright.dev.config.ts
  testIgnore: ['dev/**', ...(SHARD === 'rest' ? ['paths.spec.ts'] : [])],
  ...(SHARD === 'walks' ? { testMatch: /paths\.spec\.ts$/ } : {}),
  outputDir: OUTPUT_DIR,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: SHARD ? `playwright-report-${SHARD}` : 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    // CI records a trace on the retry of a failed test only: recording every test (DOM snapshots at each action and a
    // screencast) costs CPU on the 2-core machine for traces nobody reads; a failure's retry has one
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // an action waits at most 20 s for its element (default: the whole test's time, up to 468 s for a long walk): a
    // click on something that went away fails at once instead of holding the run (session-context-01, stop 30)
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          // Debian's Chromium; never download Playwright browsers.
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
      },
    },
  ],
  webServer: {
    // .ci/run builds the app while the unit tests run and sets E2E_BUILT=1
    // the compiled server, as `npm start` runs it (scripts/build-server.mjs)
    command: process.env.E2E_BUILT === '1' ? 'node build/server/main.js' : 'npm run build && node build/server/main.js',
    url: `${BASE_URL}/api/languages`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      APP_URL: BASE_URL,
      IAM_DATA_DIR: DATA_DIR,
      IAM_ADMIN_EMAIL: E2E_ADMIN.email,
      IAM_ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      // the upstream provider of the SSO walk (e2e/sso-upstream.ts; started by e2e/paths/ssoCallback.driver.ts)
      SSO_PROVIDERS: ssoProvidersEnv(),
    },
  },
});
