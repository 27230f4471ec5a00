/** Starts e2e/interop/rp_authlib.py with Debian's /usr/bin/python3 (python3-authlib, python3-requests). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startListeningProcess, type RpProcess } from './process';
import type { RpOptions } from './rp-openid-client';

export const DEBIAN_PYTHON = '/usr/bin/python3';
export const authlibAvailable = (): boolean => spawnSync(DEBIAN_PYTHON, ['-c', 'import authlib, requests'], { stdio: 'ignore' }).status === 0;

export function startAuthlibRp(o: RpOptions): Promise<RpProcess> {
  return startListeningProcess('authlib RP', DEBIAN_PYTHON, [join(import.meta.dirname, 'rp_authlib.py')], {
    PATH: '/usr/bin:/bin',
    RP_ISSUER: o.issuer,
    RP_HOST: o.host,
    RP_PORT: String(o.port),
    RP_CLIENT_ID: o.clientId,
    RP_CLIENT_SECRET: o.clientSecret,
    RP_SCOPE: o.scope,
  });
}
