/**
 * Builds and starts e2e/interop/go/main.go with Debian's Go (golang-go) and its packaged libraries
 * (golang-github-coreos-go-oidc-dev 2.1, golang-golang-x-oauth2-dev 0.3), in GOPATH mode: nothing is downloaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startListeningProcess, type RpProcess } from './process';
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

export function startGoRp(o: RpOptions): Promise<RpProcess> {
  return startListeningProcess('go RP', build(), [], {
    PATH: '/usr/bin:/bin',
    RP_ISSUER: o.issuer,
    RP_HOST: o.host,
    RP_PORT: String(o.port),
    RP_CLIENT_ID: o.clientId,
    RP_CLIENT_SECRET: o.clientSecret,
    RP_SCOPE: o.scope,
  });
}
