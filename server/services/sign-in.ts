import { randomUUID } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Account, AccountType } from '../db/schema';
import { readInteractionResult, type InteractionResult, type PendingActivity, type PendingSignIn } from '../oidc/interaction-result';
import { AppError, otpInvalid, otpRequired } from '../errors';
import { signInOutcome } from '../lib/metrics';
import type { UpstreamSignIn } from '../oidc/upstream-sessions';
import { ACR, accountTypeForClient, DENIED_PATH, mayUseClient, requestsMfa, signInMethods } from '../oidc/access';
import { endSessionsOfGrant } from '../oidc/grants';
import type { OidcHandle } from '../oidc/index';
import { assertHoldsInteraction } from '../oidc/interaction-binding';
import type { LoginResult, SecondFactorResult } from '../../contract/auth';
import type { PasskeyCredentialJSON, SecondFactorPolicy, SecondFactorRequirement } from '../../contract/passkeys';
import {
  authenticationOptions,
  parsePolicy,
  POLICY_SETTING,
  finishRegistration,
  meetsRequirement,
  passkeyByCredentialId,
  passkeyKind,
  passkeysOf,
  passkeyUnknown,
  registrationOptions,
  requirementFor,
  takeChallenge,
  verifyAssertion,
} from './passkeys';
import { displayName } from './account-passwords';
import { normalizeEmail } from './accounts';
import { epochMs, type Clock, type Deps } from './deps';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { issueToken } from './signed-links';
import { hitRateLimit, reserveAttempt, throttleKeys, type AttemptReservation } from './throttle';
import { consumeRecoveryCode, isTwoFactorEnabled, sendEnrollmentSms, sendSmsCode, verifySmsCode, verifyTotp } from './two-factor';

/**
 * Signing in within an OIDC interaction (docs/DESIGN.md §6): the password step, the second factor when enabled,
 * finishing the interaction (also for single sign-on, server/services/sso.ts) and ending a session.
 * Routes: server/routes/auth/login.routes.ts (contract/auth.ts).
 */

/**
 * Seconds since the epoch on oidc-provider's own clock (it reads Date.now()): only for the times it set or reads
 * itself, the interaction's `exp` and the login's `ts`. Every decision of this module is taken on `deps.clock`.
 */
const providerEpoch = (): number => Math.floor(Date.now() / 1000);
/** Seconds since the epoch on `clock`. */
const epochOf = (clock: Clock): number => Math.floor(epochMs(clock) / 1000);
/** How long a passed password step waits for its second factor. */
const PENDING_TTL_SECONDS = 10 * 60;

export type LoadedInteraction = InstanceType<Provider['Interaction']>;

/**
 * The caller's `Cookie` header: the proof that its browser holds the interaction a step acts on
 * (server/oidc/interaction-binding.ts). Every step checks it before anything else.
 */
export type BrowserCookies = string | undefined;

/** Where a sign-in comes from, recorded with it (auth_activities); plain values taken from the request. */
export interface ClientInfo {
  ip: string;
  origin: string | null;
  userAgent: string | null;
  /** the country the trusted proxy named (IAM_PLACE_HEADER), else null */
  place?: string | null;
}

interface Complete {
  status: 'complete';
  redirect_to: string;
}

interface PasswordExpired {
  status: 'password_expired';
  reset_token: string;
}

export function clientOf(interaction: LoadedInteraction): string {
  const c = interaction.params.client_id;
  return typeof c === 'string' ? c : '';
}

/** The account type an interaction signs in; the endpoint of the other type refuses it. */
function assertInteractionType(interaction: LoadedInteraction, type: AccountType): void {
  if (accountTypeForClient(clientOf(interaction)) !== type) throw new AppError(400, 'interaction_invalid');
}

async function saveInteraction(interaction: LoadedInteraction): Promise<void> {
  await interaction.save(Math.max(1, interaction.exp - providerEpoch()));
}

/**
 * Server-side state of a sign-in between the password step and the second factor (kept in the interaction's result);
 * null once PENDING_TTL_SECONDS have passed since the password step (`now`: epoch seconds on deps.clock).
 */
function pendingOf(interaction: LoadedInteraction, now: number): PendingSignIn | null {
  const p = readInteractionResult(interaction.result).pending;
  return p && p.passwordAt + PENDING_TTL_SECONDS > now ? p : null;
}

/** Stores the interaction's result (server/oidc/interaction-result.ts) and saves the interaction. */
async function saveResult(interaction: LoadedInteraction, result: InteractionResult): Promise<void> {
  interaction.result = result;
  await saveInteraction(interaction);
}

/** Remembers that the first factor passed; the second factor endpoints read it back (never the client). */
async function setPending(interaction: LoadedInteraction, pending: PendingSignIn): Promise<void> {
  await saveResult(interaction, { pending: { ...pending } });
}

const invalidCredentials = () => new AppError(401, 'invalid_credentials');

/** Counts the outcome in iam_sign_ins_total and passes the answer through. */
function outcome<T extends { status: string }>(result: T): T {
  signInOutcome(result.status === 'complete' ? 'success' : result.status);
  return result;
}

const EXPIRED_PASSWORD_TOKEN_TTL_MS = 30 * 60_000;
/** At most one "inactive account" mail per account and hour. */
const INACTIVE_MAIL_PER_HOUR = 1;

type SecondFactorField = 'one_time_password' | 'recovery_code';

/** `oidc.provider()`: the app's current OIDC provider (server/oidc/index.ts oidcOf), reached lazily. */
export function createSignInService(deps: Deps, oidc: Pick<OidcHandle, 'provider'>) {
  const db = () => deps.db.kysely;

  /**
   * The live interaction with this uid, for the browser that holds it: 403 interaction_foreign_browser for any other
   * (checked first, before the interaction is even read), 400 interaction_expired when it is gone.
   */
  async function loadInteraction(uid: string, browser: BrowserCookies): Promise<LoadedInteraction> {
    await assertHoldsInteraction(deps, browser, uid);
    return findInteraction(uid);
  }

  /** The live interaction with this uid, or 400 interaction_expired (the caller has checked the browser). */
  async function findInteraction(uid: string): Promise<LoadedInteraction> {
    const provider = await oidc.provider();
    const interaction = await provider.Interaction.find(uid);
    if (!interaction || interaction.exp <= providerEpoch()) throw new AppError(400, 'interaction_expired');
    return interaction;
  }

  /**
   * A failed password for an address of an upstream provider's e-mail domain (SSO_PROVIDERS `domains`): 401
   * `sso_account_use_provider` naming the provider, so a person of that organization learns to use its button. Decided by the
   * domain alone (public configuration, like the buttons on the page), never by the account: an unknown address,
   * an SSO account and a wrong password of a password account there all get it, so it reveals no account.
   */
  function ssoRequiredFor(email: string): AppError | null {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const provider = deps.config.ssoProviders.find((p) => p.domains?.includes(domain));
    return provider ? new AppError(401, 'sso_account_use_provider', { params: { provider: provider.name } }) : null;
  }

  /** reserveAttempt, counting the locked answers in iam_sign_ins_total{outcome="locked"}. */
  async function reserveSignIn(keys: string[]): Promise<AttemptReservation> {
    try {
      return await reserveAttempt(deps, keys);
    } catch (err) {
      if (err instanceof AppError && err.status === 429) signInOutcome('locked');
      throw err;
    }
  }

  /**
   * Finishes the interaction for `account`: applies the client access rules (a refused account ends the
   * authorization with access_denied at the client) and stores the login result with the sign-in to record.
   * The browser then follows `redirect_to` (the provider's resume URL, bound to its resume cookie); the sign-in
   * is recorded only when that completes (server/oidc/activity.ts).
   */
  async function finishSignIn(interaction: LoadedInteraction, account: Account, amr: string[], client: ClientInfo, upstream?: UpstreamSignIn): Promise<Complete> {
    const clientId = clientOf(interaction);
    if (!(await mayUseClient(db(), clientId, account))) {
      await saveResult(interaction, { error: 'access_denied', error_description: 'account not allowed for this client' });
      // the person sees the product's own "no access to <app>" page first; it continues to the app's error
      return { status: 'complete', redirect_to: `${deps.config.appUrl}${DENIED_PATH}/${interaction.uid}` };
    }
    const methods = signInMethods(amr);
    if (requestsMfa(interaction.params) && methods.acr !== ACR.mfa) {
      // step-up the sign-in cannot reach (no second factor on the account, or an upstream sign-in): the person is told
      // why on the same page as a refusal, and the app gets the OIDC error for an unmet acr request
      await saveResult(interaction, { error: 'unmet_authentication_requirements', error_description: 'a sign-in with two factors is required', unmet: amr.includes('ext') ? 'sso' : 'no_second_factor' });
      return { status: 'complete', redirect_to: `${deps.config.appUrl}${DENIED_PATH}/${interaction.uid}` };
    }
    const activity: PendingActivity = { id: randomUUID(), accountId: account.id, ip: client.ip, origin: client.origin, userAgent: client.userAgent, place: client.place ?? null, ...(upstream ? { upstream } : {}) };
    await saveResult(interaction, {
      login: { accountId: account.id, ...methods, remember: true, ts: providerEpoch() },
      activity: { ...activity },
    });
    return { status: 'complete', redirect_to: interaction.returnTo };
  }

  /**
   * The account of the password step, with what its end needs, in the one statement that reads the account: whether
   * it has a passkey (then a second factor is asked) and the second-factor requirement setting.
   */
  async function accountForSignIn(type: AccountType, email: string): Promise<{ account: Account; hasPasskey: boolean; policy: SecondFactorPolicy } | undefined> {
    const row = await db()
      .selectFrom('accounts')
      .selectAll('accounts')
      .select((eb) => [
        eb.exists(eb.selectFrom('passkeys').select('passkeys.id').whereRef('passkeys.account_id', '=', 'accounts.id')).as('has_passkey'),
        eb.selectFrom('app_settings').select('app_settings.value').where('app_settings.key', '=', POLICY_SETTING).as('second_factor_policy'),
      ])
      .where('type', '=', type)
      .where('email_normalized', '=', normalizeEmail(email))
      .executeTakeFirst();
    if (!row) return undefined;
    const { has_passkey, second_factor_policy, ...account } = row;
    return { account, hasPasskey: Boolean(Number(has_passkey)), policy: parsePolicy(second_factor_policy ?? null) };
  }

  /** Password older than IAM_PASSWORD_MAX_AGE_DAYS, or flagged by an admin (password_changed_at cleared). */
  function passwordExpired(account: Account): boolean {
    if (!account.password_hash) return false;
    if (!account.password_changed_at) return true;
    const days = deps.config.auth.passwordMaxAgeDays;
    if (!days) return false;
    return Date.parse(account.password_changed_at) + days * 86_400_000 <= epochMs(deps.clock);
  }

  /**
   * The expired-password answer: a 30-minute single-use token for POST /api/reset-password {reset_token}.
   * Given only once every factor of the account has passed (password, and the second factor when enabled).
   */
  async function passwordExpiredAnswer(account: Account): Promise<PasswordExpired> {
    const { token } = await issueToken(deps.db.kysely, account.id, 'expired_password', EXPIRED_PASSWORD_TOKEN_TTL_MS, deps.clock);
    return { status: 'password_expired', reset_token: token };
  }

  /**
   * An inactive account without a second factor was given the right password. The sign-in answers exactly as
   * for a wrong password (401 invalid_credentials, the attempt counts as a failure) so the answer reveals neither
   * the password nor the inactive state; the owner learns why by mail (at most one an hour). Runs in the
   * background: the answer must not take longer than for a wrong password.
   */
  function notifyInactiveSignIn(account: Account): void {
    void (async () => {
      await hitRateLimit(deps, `inactive-mail:${account.id}`, INACTIVE_MAIL_PER_HOUR, 3600_000);
      await deps.mailer.send({ to: account.email, template: 'account_inactive_sign_in', locale: account.locale, params: { name: displayName(account) } });
    })().catch((err: unknown) => {
      if (err instanceof AppError && err.status === 429) return;
      deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'inactive sign-in mail failed');
    });
  }

  /**
   * The password step. The attempt reserves its lockout slots (e-mail, account, ip) BEFORE the password is
   * checked, so parallel guesses evaluate at most the limit and a locked answer is the same whatever the password.
   * Order once the password is right: the second factor when enabled (the expired-password token and the inactive
   * answer come only after it), else inactive accounts get the wrong-password answer (+ a mail to the owner),
   * else the expired-password token, else the sign-in completes. Before all of it: the caller's browser must hold the
   * interaction (a foreign browser spends no lockout slot and no password check of anyone).
   */
  async function signIn(type: AccountType, body: { email: string; password: string; interaction: string }, client: ClientInfo, browser: BrowserCookies): Promise<LoginResult> {
    const interaction = await loadInteraction(body.interaction, browser);
    assertInteractionType(interaction, type);
    const found = await accountForSignIn(type, body.email);
    const account = found?.account;
    const email = normalizeEmail(body.email);
    // as many keys (and statements) for unknown e-mails as for accounts: no enumeration by time
    const keys = [throttleKeys.email(type, email), throttleKeys.account(account?.id ?? `unknown:${type}:${email}`), throttleKeys.ip(client.ip)];
    const slot = await reserveSignIn(keys);
    // unknown accounts, accounts without a password and SSO accounts get the same answer in similar time
    const ok = account?.password_hash && account.auth_type === 'CREDENTIALS' ? await verifyPassword(account.password_hash, body.password) : await verifyAgainstDummy(body.password);
    if (!account || !ok) {
      await slot.fail();
      signInOutcome('invalid_credentials');
      throw ssoRequiredFor(email) ?? invalidCredentials();
    }
    const otpMethod = isTwoFactorEnabled(account) ? account.two_factor_method : null;
    // a passkey is a second factor too: an account with one is asked for it after the password (or for its code)
    const withPasskey = found.hasPasskey;
    const method = otpMethod ?? (withPasskey ? ('PASSKEY' as const) : null);
    if (account.status !== 'ACTIVE' && !method) {
      // no oracle: the right password of an inactive account is answered and counted like a wrong one
      await slot.fail();
      notifyInactiveSignIn(account);
      signInOutcome('inactive');
      throw invalidCredentials();
    }
    await slot.succeed();
    if (method) {
      await setPending(interaction, { accountId: account.id, type, method, passwordAt: epochOf(deps.clock), amr: ['pwd'], stage: 'second_factor' });
      if (method === 'SMS') await sendSmsCode(deps, account, 'sms_login', interaction.uid);
      return outcome({ status: 'two_factor_required' as const, method, ...(withPasskey ? { passkey: true } : {}) });
    }
    if (passwordExpired(account)) return outcome(await passwordExpiredAnswer(account));
    return outcome(await completeOrEnrol(interaction, account, ['pwd'], client, { policy: found.policy, hasPasskey: withPasskey }));
  }

  /** Loads the pending second-factor sign-in of an interaction (never from the client's word). */
  async function pendingStep(uid: string, opts: { type?: AccountType; method?: 'GOOGLE' | 'SMS'; stage?: PendingSignIn['stage'] }): Promise<{ interaction: LoadedInteraction; pending: PendingSignIn; account: Account }> {
    const interaction = await findInteraction(uid);
    const pending = pendingOf(interaction, epochOf(deps.clock));
    if (!pending) throw new AppError(400, 'interaction_expired');
    // a sign-in waiting for its passkey enrolment cannot be finished by a second factor (nor the other way round)
    if (pending.stage !== (opts.stage ?? 'second_factor')) throw new AppError(400, 'two_factor_method_mismatch');
    if (opts.type && pending.type !== opts.type) throw new AppError(400, 'interaction_invalid');
    if (opts.method && pending.method !== opts.method) throw new AppError(400, 'two_factor_method_mismatch');
    const account = await db().selectFrom('accounts').selectAll().where('id', '=', pending.accountId).executeTakeFirst();
    if (!account) throw new AppError(400, 'interaction_expired');
    // an inactive account is told so only after its second factor passed (secondFactor), never before
    return { interaction, pending, account };
  }

  async function secondFactor(
    uid: string,
    code: string | undefined,
    field: SecondFactorField,
    opts: { type?: AccountType; method?: 'GOOGLE' | 'SMS' },
    verify: (account: Account, code: string, interactionUid: string) => Promise<boolean>,
    client: ClientInfo,
    browser: BrowserCookies,
  ): Promise<SecondFactorResult> {
    // first of all: another browser than the one holding the interaction is refused (no slot spent, no state read)
    await assertHoldsInteraction(deps, browser, uid);
    if (!code || !code.trim()) throw otpRequired(field);
    const { interaction, pending, account } = await pendingStep(uid, opts);
    // an account whose only second factor is a passkey has no code to type
    if (field === 'one_time_password' && pending.method === 'PASSKEY') throw new AppError(400, 'two_factor_method_mismatch');
    // the slot is reserved before the code is checked: parallel codes evaluate at most the limit
    const slot = await reserveSignIn([throttleKeys.otp(account.id), throttleKeys.ip(client.ip)]);
    if (!(await verify(account, code.trim(), interaction.uid))) {
      await slot.fail();
      signInOutcome(field === 'recovery_code' ? 'recovery_code_invalid' : 'otp_invalid');
      if (field === 'recovery_code') throw new AppError(422, 'recovery_code_invalid', { fields: { recovery_code: ['recovery_code_invalid'] } });
      throw otpInvalid();
    }
    await slot.succeed();
    // every factor passed: now the account state may be told, and an old password must be changed first
    if (account.status !== 'ACTIVE') {
      signInOutcome('inactive');
      throw new AppError(403, 'account_inactive');
    }
    if (passwordExpired(account)) return outcome(await passwordExpiredAnswer(account));
    return outcome(await completeOrEnrol(interaction, account, [...pending.amr, field === 'recovery_code' ? 'kba' : pending.method === 'SMS' ? 'sms' : 'otp'], client));
  }

  /**
   * Every factor passed: finishes the sign-in, unless an admin setting (server/services/passkeys.ts requirementFor)
   * asks this account for a passkey or a second factor it does not have. Then the sign-in waits (stage `enrol` in the
   * interaction) until a passkey is registered (enrolmentOptions, enrol).
   */
  async function completeOrEnrol(
    interaction: LoadedInteraction,
    account: Account,
    amr: string[],
    client: ClientInfo,
    known?: { policy: SecondFactorPolicy; hasPasskey: boolean },
  ): Promise<Complete | { status: 'enrolment_required'; requirement: Exclude<SecondFactorRequirement, 'none'> }> {
    const requirement = await requirementFor(db(), account, known?.policy);
    if (requirement !== 'none' && !(await meetsRequirement(db(), account, requirement, known?.hasPasskey))) {
      await setPending(interaction, { accountId: account.id, type: account.type, method: 'PASSKEY', passwordAt: epochOf(deps.clock), amr, stage: 'enrol', requirement });
      return { status: 'enrolment_required', requirement };
    }
    return finishSignIn(interaction, account, amr, client);
  }

  const accountById = (id: string) => db().selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

  /**
   * A passkey assertion within a sign-in, after its challenge was taken: the credential must be known (and, for a
   * second factor, the pending account's), the assertion must verify (server/services/passkeys.ts verifyAssertion).
   * Failures count on `keys` like a wrong code.
   */
  async function assertPasskey(credential: PasskeyCredentialJSON, challenge: string, keys: string[], accept: (account: Account) => boolean) {
    const slot = await reserveSignIn(keys);
    const passkey = await passkeyByCredentialId(db(), credential.id);
    const account = passkey ? await accountById(passkey.account_id) : undefined;
    if (!passkey || !account || !accept(account)) {
      await slot.fail();
      signInOutcome('passkey_unknown');
      throw passkeyUnknown();
    }
    try {
      // the user handle the authenticator returned, when it did, names the same account
      const handle = credential.response.userHandle ? Buffer.from(credential.response.userHandle, 'base64url').toString('utf8') : account.id;
      if (handle !== account.id) throw passkeyUnknown();
      const used = await verifyAssertion(deps, passkey, credential, challenge);
      await slot.succeed();
      return { account, passkey: used };
    } catch (err) {
      await slot.fail();
      signInOutcome(err instanceof AppError ? err.code : 'passkey_invalid');
      throw err;
    }
  }

  return {
    loadInteraction,
    finishSignIn,

    /** `GET /api/interactions/:uid`: whether the caller's browser holds this live interaction (the login page asks first). */
    async checkInteraction(uid: string, browser: BrowserCookies): Promise<void> {
      await loadInteraction(uid, browser);
    },
    signIn,

    /**
     * The one-time password of the pending sign-in: users' authenticator code (`method: 'GOOGLE'`); admins'
     * authenticator or SMS code, whichever their method is.
     */
    verifyOneTimePassword: (opts: { type: AccountType; method?: 'GOOGLE' }, uid: string, code: string | undefined, client: ClientInfo, browser: BrowserCookies) =>
      secondFactor(uid, code, 'one_time_password', opts, async (account, c, interactionUid) =>
        account.two_factor_method === 'SMS' ? verifySmsCode(deps, account, 'sms_login', c, interactionUid) : verifyTotp(deps, account, c),
      client, browser),

    /** The SMS code of the pending sign-in. */
    verifySmsCode: (uid: string, code: string | undefined, client: ClientInfo, browser: BrowserCookies) =>
      secondFactor(uid, code, 'one_time_password', { method: 'SMS' }, (account, c, interactionUid) => verifySmsCode(deps, account, 'sms_login', c, interactionUid), client, browser),

    /** A recovery code instead of the one-time password (single use). */
    verifyRecoveryCode: (uid: string, code: string | undefined, client: ClientInfo, browser: BrowserCookies) =>
      secondFactor(uid, code, 'recovery_code', {}, (account, c) => consumeRecoveryCode(deps, account, c), client, browser),

    /**
     * Request options for a passkey in a sign-in: `sign_in` (no password: nothing listed, the browser offers the
     * discoverable passkeys it holds) or `second_factor` (the pending account's passkeys). The challenge is bound to
     * the interaction (whose browser is checked first) and, for a second factor, to the pending account.
     */
    async passkeyOptions(uid: string, purpose: 'sign_in' | 'second_factor', browser: BrowserCookies) {
      const interaction = await loadInteraction(uid, browser);
      // each call stores a challenge: bounded per interaction (the global per-IP limit applies too)
      await hitRateLimit(deps, `passkey-options:${interaction.uid}`, 30, PENDING_TTL_SECONDS * 1000);
      if (purpose === 'sign_in') return authenticationOptions(deps, [], { purpose: 'sign_in', interactionUid: interaction.uid });
      const { pending } = await pendingStep(uid, {});
      const passkeys = await passkeysOf(db(), pending.accountId);
      if (passkeys.length === 0) throw new AppError(400, 'two_factor_method_mismatch');
      return authenticationOptions(deps, passkeys, { purpose: 'second_factor', interactionUid: interaction.uid, accountId: pending.accountId });
    },

    /**
     * Signs in with a passkey instead of a password (amr `hwk`/`swk`, acr mfa: user verification makes it
     * multi-factor). The challenge is taken first (single use, this interaction's); an unknown or removed credential,
     * or one of an account of the other type, is 401 passkey_unknown; failures count on the caller's address.
     */
    async passkeySignIn(uid: string, credential: PasskeyCredentialJSON, client: ClientInfo, browser: BrowserCookies): Promise<LoginResult> {
      const interaction = await loadInteraction(uid, browser);
      const type = accountTypeForClient(clientOf(interaction));
      const challenge = await takeChallenge(db(), credential, { purpose: 'sign_in', interactionUid: interaction.uid }, epochMs(deps.clock));
      const { account, passkey } = await assertPasskey(credential, challenge, [throttleKeys.ip(client.ip)], (a) => a.type === type);
      if (account.status !== 'ACTIVE') {
        signInOutcome('inactive');
        throw new AppError(403, 'account_inactive');
      }
      return outcome(await completeOrEnrol(interaction, account, [passkeyKind(passkey)], client));
    },

    /** A passkey of the pending account as the second factor after its password. */
    async passkeySecondFactor(uid: string, credential: PasskeyCredentialJSON, client: ClientInfo, browser: BrowserCookies): Promise<SecondFactorResult> {
      await assertHoldsInteraction(deps, browser, uid);
      const { interaction, pending, account } = await pendingStep(uid, {});
      const challenge = await takeChallenge(db(), credential, { purpose: 'second_factor', interactionUid: interaction.uid, accountId: pending.accountId }, epochMs(deps.clock));
      const { passkey } = await assertPasskey(credential, challenge, [throttleKeys.otp(account.id), throttleKeys.ip(client.ip)], (a) => a.id === account.id);
      if (account.status !== 'ACTIVE') {
        signInOutcome('inactive');
        throw new AppError(403, 'account_inactive');
      }
      if (passwordExpired(account)) return outcome(await passwordExpiredAnswer(account));
      return outcome(await completeOrEnrol(interaction, account, [...pending.amr, passkeyKind(passkey)], client));
    },

    /** Creation options for the passkey a waiting sign-in (`enrolment_required`) must register. */
    async enrolmentOptions(uid: string, browser: BrowserCookies) {
      await assertHoldsInteraction(deps, browser, uid);
      const { interaction, account } = await pendingStep(uid, { stage: 'enrol' });
      await hitRateLimit(deps, `passkey-options:${interaction.uid}`, 30, PENDING_TTL_SECONDS * 1000);
      return registrationOptions(deps, account, { purpose: 'enrol', interactionUid: interaction.uid });
    },

    /** Registers the required passkey, then finishes the waiting sign-in. */
    async enrol(uid: string, name: string, credential: PasskeyCredentialJSON, client: ClientInfo, browser: BrowserCookies): Promise<SecondFactorResult> {
      await assertHoldsInteraction(deps, browser, uid);
      const { interaction, pending, account } = await pendingStep(uid, { stage: 'enrol' });
      const challenge = await takeChallenge(db(), credential, { purpose: 'enrol', interactionUid: interaction.uid, accountId: account.id }, epochMs(deps.clock));
      await finishRegistration(deps, account, credential, challenge, name, { id: account.id, email: account.email, ip: client.ip });
      return outcome(await finishSignIn(interaction, account, pending.amr, client));
    },

    /** Sends the sign-in SMS code of a pending sign-in again. */
    async resendSignInSms(uid: string, browser: BrowserCookies): Promise<void> {
      await assertHoldsInteraction(deps, browser, uid);
      const { interaction, account } = await pendingStep(uid, { method: 'SMS' });
      await sendSmsCode(deps, account, 'sms_login', interaction.uid);
    },

    /** Signed in: the enrollment code, or the code that confirms disabling when SMS 2FA is already on. */
    resendEnrollmentSms: (account: Account): Promise<void> => sendEnrollmentSms(deps, account),

    /**
     * Signing out (POST /api/logout): ends the caller's grant, the provider session holding it and the grants of that
     * session (service apps signed in through it), records the sign-outs and queues the apps' back-channel logout
     * tokens (server/oidc/grants.ts endSessionsOfGrant). Answers the ended sessions' uids.
     */
    endGrant(grantId: string): Promise<string[]> {
      return endSessionsOfGrant(db(), grantId, 'sign_out');
    },
  };
}
export type SignInService = ReturnType<typeof createSignInService>;
