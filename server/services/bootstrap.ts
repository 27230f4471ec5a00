import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { passwordViolations } from '../../contract/domain/password-policy';
import { ConfigError } from '../config';
import { hashPassword } from './passwords';
import { isCommonPassword } from './common-passwords';
import { accountRow } from './accounts';
import { epochMs, type ClockedHost } from './deps';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The one-time link to create the first super administrator (printed at first start). */
export const setupPageUrl = (appUrl: string, token: string): string => `${appUrl}/admin/setup?token=${token}`;

/**
 * The one-time setup link in a frame that stands out among log lines: plain ASCII (any terminal, any log collector),
 * the link alone on its line so it can be copied or clicked whole.
 */
export function setupBanner(setupLink: string, listening: boolean): string {
  const rule = '='.repeat(Math.min(100, Math.max(72, setupLink.length + 4)));
  return [
    '',
    rule,
    listening ? '  IAM is listening. No administrator yet.' : '  No administrator yet.',
    '  Create the first super_admin within 24 hours with this one-time link:',
    '',
    `  ${setupLink}`,
    '',
    rule,
    '',
  ].join('\n');
}

/**
 * First start: create the super_admin from IAM_ADMIN_EMAIL/IAM_ADMIN_PASSWORD once; without them,
 * and while no admin exists, print a one-time setup link (valid 24 h) instead.
 */
export async function bootstrapFirstAdmin(deps: ClockedHost): Promise<{ created?: string; setupLink?: string }> {
  const db = deps.db.kysely;
  const anyAdmin = await db.selectFrom('accounts').select('id').where('type', '=', 'admin').limit(1).executeTakeFirst();
  if (anyAdmin) return {};
  const { adminEmail, adminPassword } = deps.config;
  if (adminEmail && adminPassword) {
    const violations: string[] = [...passwordViolations(adminPassword), ...(isCommonPassword(adminPassword) ? ['password_common'] : [])];
    if (violations.length) throw new ConfigError('IAM_ADMIN_PASSWORD', `breaks the password policy (${violations.join(', ')})`);
    const now = deps.clock.nowIso();
    const row = accountRow({
      type: 'admin',
      email: adminEmail,
      first_name: 'Super',
      last_name: 'Admin',
      admin_role: 'super_admin',
      status: 'ACTIVE',
      auth_type: 'CREDENTIALS',
      locale: 'en',
      technical: 0,
      password_hash: await hashPassword(adminPassword),
      password_changed_at: now,
      email_verified_at: now,
    });
    // a concurrent instance may win the race: the unique index keeps one, and only the winner says it created it
    const inserted = await db.insertInto('accounts').values(row).onConflict((oc) => oc.columns(['type', 'email_normalized']).doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      deps.log.debug({ email: adminEmail }, 'the first super_admin was created by another instance');
      return {};
    }
    deps.log.info({ email: adminEmail }, 'created the first super_admin');
    return { created: adminEmail };
  }
  const token = randomBytes(32).toString('base64url');
  await db.deleteFrom('one_time_tokens').where('purpose', '=', 'setup').execute();
  await db
    .insertInto('one_time_tokens')
    .values({
      id: randomUUID(),
      account_id: null,
      purpose: 'setup',
      token_hash: sha256(token),
      expires_at: new Date(epochMs(deps.clock) + 24 * 3600_000).toISOString(),
      used_at: null,
      created_at: deps.clock.nowIso(),
    })
    .execute();
  const setupLink = setupPageUrl(deps.config.appUrl, token);
  // printed on purpose: this is how the operator gets in on a fresh install (server/main.ts prints it once more, last,
  // when the server is listening: the build output and the start-up logs above must not bury it, issue 29)
  console.log(setupBanner(setupLink, false));
  return { setupLink };
}
