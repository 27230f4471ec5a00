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
 * The suite runs as four shards side by side (.ci/run), each with its own server (E2E_PORT), data directory and output
 * directory (E2E_OUTPUT_DIR: Playwright empties it when a run starts). Its tests mostly wait (for the page, the server,
 * a poll's next turn): the journeys above used 47 s of CPU in 222 s, so four shards on two cores take about a quarter
 * of the serial run's wall time, not twice as long. E2E_SHARD picks one; unset runs all of it (by hand):
 * - `walks-1`: the statechart walks (e2e/paths.spec.ts) of the machines in WALKS_1;
 * - `walks-2`: the walks of every other machine (a new machine's walk lands here), and the keyboard journeys;
 * - `screens`: the screens matrix, the journeys and the toast placement;
 * - `rest`: every other spec (a new spec lands here).
 * Shares measured on a sharded run under load (stop 30; test-seconds): walks-1 766, walks-2 621 + keyboard 138, screens
 * 998, rest ~620.
 */
const SHARD = process.env.E2E_SHARD;
const SHARDS = ['walks-1', 'walks-2', 'screens', 'rest'] as const;
if (SHARD !== undefined && !(SHARDS as readonly string[]).includes(SHARD)) throw new Error(`E2E_SHARD=${SHARD}: one of ${SHARDS.join(', ')}`);
const WALKS_1 = ['session', 'session-context', 'ssoCallback', 'verifyInvitation', 'twoFactorSetup', 'apiKey'];
const SCREENS = [/screens\.spec\.ts$/, /journeys[\\/]journeys\.spec\.ts$/, /toasts\.spec\.ts$/];
const WALKS = /paths\.spec\.ts$/;
const KEYBOARD = /journeys[\\/]keyboard\.spec\.ts$/;
// e2e/paths.spec.ts reads which machines it walks (the runner and its workers load this file)
if (SHARD === 'walks-1') process.env.E2E_WALKS = `only:${WALKS_1.join(',')}`;
if (SHARD === 'walks-2') process.env.E2E_WALKS = `except:${WALKS_1.join(',')}`;
const OUTPUT_DIR = process.env.E2E_OUTPUT_DIR ?? './test-results';

export const E2E_ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!x' } as const;

export default defineConfig({
  testDir: './e2e',
  // e2e/dev runs against the Vite dev server: playwright.dev.config.ts
  testIgnore: ['dev/**', ...(SHARD === 'rest' ? [WALKS, KEYBOARD, ...SCREENS] : [])],
  ...(SHARD === 'walks-1' ? { testMatch: WALKS } : SHARD === 'walks-2' ? { testMatch: [WALKS, KEYBOARD] } : SHARD === 'screens' ? { testMatch: SCREENS } : {}),
  outputDir: OUTPUT_DIR,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // four shards share CI's two cores: a test that takes 30 s alone can take 60+ there (an action still waits at most
  // 20 s, below, so a hang is not what this allows)
  timeout: process.env.CI ? 120_000 : 60_000,
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
