/**
 * Builds and starts e2e/interop/go/main.go with Debian's Go (golang-go) and its packaged libraries
 * (golang-github-coreos-go-oidc-dev 2.1, golang-golang-x-oauth2-dev 0.3), in GOPATH mode: nothing is downloaded.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RpOptions } from './rp-openid-client';

const GO = '/usr/bin/go';
const goEnv = (gopath: string): NodeJS.ProcessEnv => ({
  PATH: '/usr/bin:/bin',
  HOME: gopath,
  GOPATH: `${gopath}:/usr/share/gocode`,
  GO111MODULE: 'off',
  GOCACHE: join(gopath, 'cache'),
  GOFLAGS: '',
  GOPROXY: 'off',
});

export const goAvailable = (): boolean => spawnSync(GO, ['version'], { stdio: 'ignore' }).status === 0;

/** Compiles the relying party once per process (about 10 s cold). */
let built: string | undefined;
function build(): string {
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), 'go-rp-'));
  const out = join(dir, 'go-rp');
  const r = spawnSync(GO, ['build', '-o', out, '.'], { cwd: join(import.meta.dirname, 'go'), env: goEnv(dir), encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`go build failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  built = out;
  return out;
}

export async function startGoRp(o: RpOptions): Promise<{ url: string; output(): string; close(): Promise<void> }> {
  const child = spawn(build(), [], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: '/usr/bin:/bin', RP_ISSUER: o.issuer, RP_HOST: o.host, RP_PORT: String(o.port), RP_CLIENT_ID: o.clientId, RP_CLIENT_SECRET: o.clientSecret, RP_SCOPE: o.scope },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`go RP did not start:\n${output}`)), 15_000);
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
      reject(new Error(`go RP exited (${code}):\n${output}`));
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
