/**
 * A server of the spec's own on http://localhost:<free port>, from the same build as the e2e server, for what the
 * browser refuses on an IP address: WebAuthn (Chromium: "SecurityError: This is an invalid domain" on the e2e
 * server's APP_URL http://127.0.0.1:PORT). Its own data directory (SQLite, outbox) and first super_admin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request as playwrightRequest, type APIRequestContext, type Browser } from '@playwright/test';
import { apiToken, fillCredentials } from './helpers';
import { freePort } from './interop/net';

export interface LocalhostServer {
  origin: string;
  dataDir: string;
  /** An API client on this server. */
  api: APIRequestContext;
  admin: { email: string; password: string };
  /** The first super_admin's access token: signed in through the admin console's form in a throwaway context. */
  adminToken(browser: Browser): Promise<string>;
  /** Runs `fn` with this server's data directory as the outbox the helpers read (E2E_DATA_DIR). */
  withOutbox<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function startLocalhostServer(label: string, admin: { email: string; password: string }): Promise<LocalhostServer> {
  const port = await freePort('127.0.0.1');
  const origin = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), `iam-e2e-${label}-`));
  const server: ChildProcess = spawn('node', ['build/server/main.js'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_URL: origin, IAM_DATA_DIR: dataDir, IAM_ADMIN_EMAIL: admin.email, IAM_ADMIN_PASSWORD: admin.password, LOG_LEVEL: 'warn', SSO_PROVIDERS: '' },
  });
  let output = '';
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const api = await playwrightRequest.newContext({ baseURL: origin });
  await expect
    .poll(async () => (await api.get('/api/languages').catch(() => null))?.ok() ?? false, { timeout: 60_000, message: `the ${label} server did not start:\n${output}` })
    .toBe(true);
  return {
    origin,
    dataDir,
    api,
    admin,
    adminToken: async (browser) => {
      const context = await browser.newContext({ baseURL: origin });
      try {
        const page = await context.newPage();
        await page.goto('/admin/login');
        await expect(page).toHaveURL(/\/admin\/login\?interaction=/);
        await fillCredentials(page, admin.email, admin.password);
        await expect(page).toHaveURL(/\/admin\/dashboard/);
        return await apiToken(page);
      } finally {
        await context.close();
      }
    },
    withOutbox: async (fn) => {
      const previous = process.env.E2E_DATA_DIR;
      process.env.E2E_DATA_DIR = dataDir;
      try {
        return await fn();
      } finally {
        process.env.E2E_DATA_DIR = previous;
      }
    },
    close: async () => {
      await api.dispose();
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
