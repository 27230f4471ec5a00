import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Account, AccountType } from '../db/schema';
import { nowIso } from '../db/index';
import { AppError } from '../errors';
import { getProvider } from '../oidc/index';
import { accountTypeForClient, DENIED_PATH, mayUseClient, signInMethods } from '../oidc/access';
import { revokeGrantRows } from '../oidc/adapter';
import { displayName } from './account-passwords';
import { issueToken } from './signed-links';
import { hitRateLimit } from './throttle';

const epoch = (): number => Math.floor(Date.now() / 1000);
/** How long a passed password step waits for its second factor. */
export const PENDING_TTL_SECONDS = 10 * 60;

/** Server-side state of a sign-in between the password step and the second factor (kept in the Interaction). */
export interface PendingSignIn {
  accountId: string;
  type: AccountType;
  method: 'GOOGLE' | 'SMS';
  passwordAt: number;
  amr: string[];
}

export type LoadedInteraction = InstanceType<Provider['Interaction']>;

export function clientOf(interaction: LoadedInteraction): string {
  const c = interaction.params.client_id;
  return typeof c === 'string' ? c : '';
}

/** The live interaction with this uid, or 400 interaction_expired. */
export async function loadInteraction(app: FastifyInstance, uid: string): Promise<LoadedInteraction> {
  const provider = await getProvider(app);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.exp <= epoch()) throw new AppError(400, 'interaction_expired');
  return interaction;
}

/** The account type an interaction signs in; the endpoint of the other type refuses it. */
export function assertInteractionType(interaction: LoadedInteraction, type: AccountType): void {
  if (accountTypeForClient(clientOf(interaction)) !== type) throw new AppError(400, 'interaction_invalid');
}

async function saveInteraction(interaction: LoadedInteraction): Promise<void> {
  await interaction.save(Math.max(1, interaction.exp - epoch()));
}

export function pendingOf(interaction: LoadedInteraction): PendingSignIn | null {
  const raw: unknown = (interaction.result as Record<string, unknown> | undefined)?.pending;
  if (!raw || typeof raw !== 'object') return null;
  const p = raw as Record<string, unknown>;
  if (typeof p.accountId !== 'string' || (p.type !== 'user' && p.type !== 'admin') || (p.method !== 'GOOGLE' && p.method !== 'SMS') || typeof p.passwordAt !== 'number') return null;
  if (p.passwordAt + PENDING_TTL_SECONDS <= epoch()) return null;
  const amr = Array.isArray(p.amr) ? p.amr.filter((x): x is string => typeof x === 'string') : ['pwd'];
  return { accountId: p.accountId, type: p.type, method: p.method, passwordAt: p.passwordAt, amr };
}

/** Remembers that the first factor passed; the second factor endpoints read it back (never the client). */
export async function setPending(interaction: LoadedInteraction, pending: PendingSignIn): Promise<void> {
  interaction.result = { pending: { ...pending } };
  await saveInteraction(interaction);
}

/** Records a completed sign-in. Never throws: a recording failure must not break sign-in. */
async function recordActivity(app: FastifyInstance, request: FastifyRequest, account: Account, clientId: string): Promise<string | undefined> {
  try {
    const id = randomUUID();
    const origin = request.headers.origin ?? request.headers.referer ?? null;
    await app.db.kysely
      .insertInto('auth_activities')
      .values({
        id,
        account_id: account.id,
        client_id: clientId || null,
        session_ref: null,
        logged_in_at: nowIso(),
        logged_out_at: null,
        ip_address: request.ip ?? null,
        origin: typeof origin === 'string' ? origin.slice(0, 500) : null,
        user_agent: (request.headers['user-agent'] ?? '').slice(0, 500) || null,
      })
      .execute();
    return id;
  } catch (err) {
    app.log.warn({ err }, 'recording the sign-in failed');
    return undefined;
  }
}

export interface Complete {
  status: 'complete';
  redirect_to: string;
}

/**
 * Finishes the interaction for `account`: applies the client access rules (a refused account ends the
 * authorization with access_denied at the client), records the sign-in, and stores the login result.
 * The browser then follows `redirect_to` (the provider's resume URL, bound to its resume cookie).
 */
export async function finishSignIn(app: FastifyInstance, request: FastifyRequest, interaction: LoadedInteraction, account: Account, amr: string[]): Promise<Complete> {
  const clientId = clientOf(interaction);
  if (!(await mayUseClient(app.db.kysely, clientId, account))) {
    interaction.result = { error: 'access_denied', error_description: 'account not allowed for this client' };
    await saveInteraction(interaction);
    // the person sees the product's own "no access to <app>" page first; it continues to the app's error
    return { status: 'complete', redirect_to: `${app.config.appUrl}${DENIED_PATH}/${interaction.uid}` };
  }
  const activityId = await recordActivity(app, request, account, clientId);
  interaction.result = {
    login: { accountId: account.id, ...signInMethods(amr), remember: true, ts: epoch() },
    ...(activityId ? { activityId } : {}),
  };
  await saveInteraction(interaction);
  return { status: 'complete', redirect_to: interaction.returnTo };
}

/** Ends one grant (the caller's session): its tokens, the sessions holding it, and records the sign-out. */
export async function endGrant(app: FastifyInstance, grantId: string): Promise<void> {
  const db = app.db.kysely;
  await revokeGrantRows(db, grantId);
  const sessions = await db.selectFrom('oidc_models').select(['id', 'payload']).where('model', '=', 'Session').where('payload', 'like', `%${grantId}%`).execute();
  const ids = sessions.filter((s) => s.payload.includes(`"${grantId}"`)).map((s) => s.id);
  if (ids.length) await db.deleteFrom('oidc_models').where('model', '=', 'Session').where('id', 'in', ids).execute();
  await db.updateTable('auth_activities').set({ logged_out_at: nowIso() }).where('session_ref', '=', grantId).where('logged_out_at', 'is', null).execute();
}

/** Password older than IAM_PASSWORD_MAX_AGE_DAYS, or flagged by an admin (password_changed_at cleared). */
export function passwordExpired(app: FastifyInstance, account: Account): boolean {
  if (!account.password_hash) return false;
  if (!account.password_changed_at) return true;
  const days = app.config.auth.passwordMaxAgeDays;
  if (!days) return false;
  return Date.parse(account.password_changed_at) + days * 86_400_000 <= Date.now();
}

const EXPIRED_PASSWORD_TOKEN_TTL_MS = 30 * 60_000;

export interface PasswordExpired {
  status: 'password_expired';
  reset_token: string;
}

/**
 * The expired-password answer: a 30-minute single-use token for POST /api/reset-password {reset_token}.
 * Given only once every factor of the account has passed (password, and the second factor when enabled).
 */
export async function passwordExpiredAnswer(app: FastifyInstance, account: Account): Promise<PasswordExpired> {
  const { token } = await issueToken(app.db.kysely, account.id, 'expired_password', EXPIRED_PASSWORD_TOKEN_TTL_MS);
  return { status: 'password_expired', reset_token: token };
}

/** At most one "inactive account" mail per account and hour. */
const INACTIVE_MAIL_PER_HOUR = 1;

/**
 * An inactive account without a second factor was given the right password. The sign-in answers exactly as
 * for a wrong password (401 invalid_credentials, the attempt counts as a failure) so the answer reveals neither
 * the password nor the inactive state; the owner learns why by mail (at most one an hour). Runs in the
 * background: the answer must not take longer than for a wrong password.
 */
export function notifyInactiveSignIn(app: FastifyInstance, account: Account): void {
  void (async () => {
    await hitRateLimit(app, `inactive-mail:${account.id}`, INACTIVE_MAIL_PER_HOUR, 3600_000);
    await app.mailer.send({ to: account.email, template: 'account_inactive_sign_in', locale: account.locale, params: { name: displayName(account) } });
  })().catch((err: unknown) => {
    if (err instanceof AppError && err.status === 429) return;
    app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'inactive sign-in mail failed');
  });
}
