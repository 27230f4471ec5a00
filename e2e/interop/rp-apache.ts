/**
 * Debian's Apache 2.4 with libapache2-mod-auth-openidc as a relying party: e2e/interop/apache/httpd.conf
 * is copied to a temp ServerRoot with its placeholders filled in, then `apache2 -X` (one foreground
 * process, never the system service) serves it until close().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from './net';

export const APACHE_BIN = '/usr/sbin/apache2';
export const MOD_AUTH_OPENIDC = '/usr/lib/apache2/modules/mod_auth_openidc.so';
export const apacheAvailable = (): boolean => existsSync(APACHE_BIN) && existsSync(MOD_AUTH_OPENIDC);

export interface ApacheRpOptions {
  issuer: string;
  host: string;
  port: number;
  clientId: string;
  clientSecret: string;
  role: string;
}

export interface RunningApache {
  url: string;
  errorLog(): string;
  close(): Promise<void>;
}

export async function startApacheRp(o: ApacheRpOptions): Promise<RunningApache> {
  const dir = mkdtempSync(join(tmpdir(), 'iam-rp-apache-'));
  // the worker drops to www-data when started as root: it must read the documents
  chmodSync(dir, 0o755);
  const src = join(import.meta.dirname, 'apache');
  cpSync(join(src, 'htdocs'), join(dir, 'htdocs'), { recursive: true });
  const conf = readFileSync(join(src, 'httpd.conf'), 'utf8')
    .replaceAll('@DIR@', dir)
    .replaceAll('@HOST@', o.host)
    .replaceAll('@PORT@', String(o.port))
    .replaceAll('@ISSUER@', o.issuer)
    .replaceAll('@CLIENT_ID@', o.clientId)
    .replaceAll('@CLIENT_SECRET@', o.clientSecret)
    .replaceAll('@PASSPHRASE@', randomBytes(24).toString('base64url'))
    .replaceAll('@ROLE@', o.role);
  const confPath = join(dir, 'httpd.conf');
  writeFileSync(confPath, conf);
  let output = '';
  const child: ChildProcess = spawn(APACHE_BIN, ['-X', '-f', confPath], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' } });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    const file = join(dir, 'error.log');
    return `${output}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  try {
    await waitForPort(o.host, o.port, 15_000, () => child.exitCode !== null);
  } catch (err) {
    child.kill('SIGTERM');
    throw new Error(`apache2 did not start: ${(err as Error).message}\n${errorLog()}`);
  }
  return {
    url: `http://${o.host}:${o.port}`,
    errorLog,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
