/** Starts e2e/interop/rp_authlib.py with Debian's /usr/bin/python3 (python3-authlib, python3-requests). */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { RpOptions } from './rp-openid-client';

export const DEBIAN_PYTHON = '/usr/bin/python3';
export const authlibAvailable = (): boolean => spawnSync(DEBIAN_PYTHON, ['-c', 'import authlib, requests'], { stdio: 'ignore' }).status === 0;

export async function startAuthlibRp(o: RpOptions): Promise<{ url: string; output(): string; close(): Promise<void> }> {
  const child = spawn(DEBIAN_PYTHON, [join(import.meta.dirname, 'rp_authlib.py')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: '/usr/bin:/bin',
      RP_ISSUER: o.issuer,
      RP_HOST: o.host,
      RP_PORT: String(o.port),
      RP_CLIENT_ID: o.clientId,
      RP_CLIENT_SECRET: o.clientSecret,
      RP_SCOPE: o.scope,
    },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`authlib RP did not start:\n${output}`)), 15_000);
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /listening (\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`authlib RP exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
