/**
 * Development mode in Chromium (README "Development"): `npm run dev:api` (NODE_ENV=development, the Vite origin in
 * IAM_DEV_ORIGINS) and the Vite dev server in front of it, the SPA served by Vite with hot reload, /api and /oidc
 * proxied. Run: `npx playwright test -c playwright.dev.config.ts` (E2E_PORT: the API; Vite on E2E_PORT + 1000).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const DEV_PORT = PORT + 1000;
const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'iam-e2e-dev-'));
process.env.E2E_DATA_DIR = DATA_DIR;

export default defineConfig({
  testDir: './e2e/dev',
  outputDir: './test-results/dev',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // the dev server compiles modules on their first request
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: { baseURL: `http://127.0.0.1:${DEV_PORT}`, trace: 'retain-on-failure' },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] },
      },
    },
  ],
  webServer: [
    {
      command: 'tsx scripts/dev-api.ts',
      url: `http://127.0.0.1:${PORT}/api/languages`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        IAM_DEV_PORT: String(DEV_PORT),
        IAM_DATA_DIR: DATA_DIR,
        // the server serves no SPA build here: pages come from Vite
        IAM_DIST_DIR: join(DATA_DIR, 'no-dist'),
        IAM_ADMIN_EMAIL: 'admin@example.com',
        IAM_ADMIN_PASSWORD: 'Admin-Passw0rd!x',
        LOG_LEVEL: 'warn',
      },
    },
    {
      command: `npx panda codegen && npx lingui compile --typescript && npx vite --host 127.0.0.1`,
      url: `http://127.0.0.1:${DEV_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { IAM_DEV_PORT: String(DEV_PORT), IAM_DEV_BACKEND: `http://127.0.0.1:${PORT}` },
    },
  ],
});
