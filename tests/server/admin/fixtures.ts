import type { TestApp } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import type { Account } from '../../../server/db/schema';

export const PASSWORD = 'Corr3ct-Horse!Battery';

export interface Actor {
  account: Account;
  headers: { authorization: string };
}

let n = 0;
/** Creates an account and signs it in through the real OIDC flow. */
export async function actor(t: TestApp, kind: 'super_admin' | 'manager' | 'user', extra: Record<string, unknown> = {}): Promise<Actor> {
  n++;
  // digits only after the kind: a base-36 timestamp spelled letters ("…zo…" at some milliseconds) that the list tests'
  // searches then matched, a clock-dependent flake
  const email = `${kind}.${n}.${Date.now()}@example.com`;
  const account = await createAccount(t, {
    type: kind === 'user' ? 'user' : 'admin',
    email,
    password: PASSWORD,
    ...(kind === 'user' ? {} : { admin_role: kind }),
    ...extra,
  });
  const tokens = await signIn(t, { email, password: PASSWORD, client: kind === 'user' ? 'portal' : 'admin-console' });
  return { account, headers: { authorization: tokens.authorization } };
}

export interface Actors {
  superAdmin: Actor;
  manager: Actor;
  user: Actor;
}

export async function actors(t: TestApp): Promise<Actors> {
  return { superAdmin: await actor(t, 'super_admin'), manager: await actor(t, 'manager'), user: await actor(t, 'user') };
}

/** A multipart body with one file field and optional text fields. */
export function multipart(field: string, filename: string, content: Buffer | string, type = 'application/octet-stream', fields: Record<string, string> = {}) {
  const boundary = `----t${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`));
  parts.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
