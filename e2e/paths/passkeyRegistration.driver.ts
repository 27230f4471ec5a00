/**
 * Browser driver of passkey registration (machines/passkeyRegistration.machine.ts, words in
 * machines/passkeyRegistration.qa.ts): the profile's "Passkeys" card and the enrolment a sign-in requires, in
 * Chromium with the DevTools protocol's virtual authenticator, on the walk's localhost server (e2e/paths.spec.ts).
 *
 * The browser's prompt is held open (e2e/paths/passkey-prompt.ts) and answered through the browser's real WebAuthn
 * API, the virtual authenticator set up for the outcome: empty (a new passkey is created), holding a passkey this
 * account registered (the browser refuses: InvalidStateError), refusing user verification (NotAllowedError), or the
 * relying-party id of another site (SecurityError). The page's time-out runs on the page clock. Server-side
 * arrangements go to the walk server's SQLite file: as many passkeys as an account may have, an expired challenge, a forgotten
 * sign-in (interaction), the second-factor policy for the enrolment.
 */
import { expect, type Locator } from '@playwright/test';
import { randomBytes, randomUUID } from 'node:crypto';
import { MAX_PASSKEYS_PER_ACCOUNT } from '../../server/services/passkeys';
import { fillCredentials, withDb } from '../helpers';
import type { DriverContext, DriverFn, MachineDriver } from './driver';
import { createAccount, expireInteraction, PASSWORD, type WalkAccount } from './login.driver';
import { answerPrompt, deviceOf, holdNextPost, holdOnly, outwait, remember, updatePolicy, waitForPrompt, type HeldPost } from './passkey-prompt';

interface World {
  account: WalkAccount;
  enrolment: boolean;
  /** a request held open: the step ended "while the server has not answered yet" */
  pending?: HeldPost;
  /** passkey names saved so far */
  saved: string[];
}

const world = (ctx: DriverContext): World => ctx.world as unknown as World;

const optionsPath = (ctx: DriverContext) => (world(ctx).enrolment ? '/api/passkeys/enrolment-options' : '/api/passkeys/registration-options');
const savePath = (ctx: DriverContext) => (world(ctx).enrolment ? '/api/passkeys/enrol' : '/api/passkeys');

/** Holds the next POST to `path` unanswered until `release`. */
async function holdNext(ctx: DriverContext, path: string): Promise<void> {
  world(ctx).pending = await holdNextPost(ctx.page, path);
}

async function release(ctx: DriverContext): Promise<void> {
  const held = world(ctx).pending;
  expect(held, 'a request is held').toBeTruthy();
  world(ctx).pending = undefined;
  await held!.release();
}

/** The next POST to `path` fails as with no network. */
async function failNext(ctx: DriverContext, path: string): Promise<void> {
  await ctx.page.route((url) => url.pathname === path, (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback()), { times: 1 });
}

const card = (ctx: DriverContext): Locator => ctx.page.locator('section[aria-labelledby="passkeys"]');
const nameForm = (ctx: DriverContext): Locator => ctx.page.locator('[data-screen="screen:passkey-add.name"]');
const promptView = (ctx: DriverContext): Locator => ctx.page.locator('[data-screen="screen:passkey-add.prompt"]');

async function pressContinue(ctx: DriverContext): Promise<void> {
  await nameForm(ctx).getByRole('button', { name: 'Continue', exact: true }).click();
}

/** The account's passkeys the server stores (credential ids, base64url). */
function storedCredentialIds(accountId: string): string[] {
  return withDb((db) => (db.prepare('SELECT credential_id FROM passkeys WHERE account_id = ?').all(accountId) as Array<{ credential_id: string }>).map((r) => r.credential_id));
}
const base64url = (standard: string) => standard.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Answers the held `create()` through the browser, and checks the browser's own outcome. */
const answer = (ctx: DriverContext, how: 'forward' | 'foreign-rp', expected: string) => answerPrompt(ctx.page, 'create', how, expected);

/** As many passkeys on the account as it may have (the limit), taken away again once the page has shown the refusal. */
function fillToLimit(accountId: string): string[] {
  const ids: string[] = [];
  const now = new Date().toISOString();
  withDb((db) => {
    const have = (db.prepare('SELECT COUNT(*) AS n FROM passkeys WHERE account_id = ?').get(accountId) as { n: number }).n;
    for (let i = have; i < MAX_PASSKEYS_PER_ACCOUNT; i++) {
      const id = randomUUID();
      ids.push(id);
      db.prepare('INSERT INTO passkeys (id, account_id, credential_id, public_key, counter, backup_eligible, backed_up, name, created_at) VALUES (?, ?, ?, ?, 0, 0, 0, ?, ?)').run(
        id,
        accountId,
        randomBytes(32).toString('base64url'),
        randomBytes(77).toString('base64url'),
        `Walk filler ${i + 1}`,
        now,
      );
    }
  });
  return ids;
}

const steps: Record<string, DriverFn> = {
  start: async () => {},
  START: async (ctx) => {
    await card(ctx).getByRole('button', { name: 'Add a passkey', exact: true }).click();
  },
  SUBMIT: async (ctx) => {
    await holdNext(ctx, optionsPath(ctx));
    await pressContinue(ctx);
  },
  CANCEL: async (ctx) => {
    const prompting = await promptView(ctx).isVisible();
    await (prompting ? promptView(ctx) : nameForm(ctx)).getByRole('button', { name: 'Cancel', exact: true }).click();
  },
  DISMISS: async (ctx) => {
    await card(ctx).getByRole('button', { name: 'Done', exact: true }).click();
  },

  'getOptions succeeds': async (ctx) => {
    if (world(ctx).pending) await release(ctx);
    else await pressContinue(ctx);
    await waitForPrompt(ctx.page, 'create');
  },
  'getOptions fails network': async (ctx) => {
    await failNext(ctx, optionsPath(ctx));
    await pressContinue(ctx);
    await expect(nameForm(ctx).getByRole('alert')).toContainText('The server cannot be reached');
  },
  'getOptions fails passkey_limit_reached': async (ctx) => {
    const fillers = fillToLimit(world(ctx).account.id);
    await pressContinue(ctx);
    await expect(nameForm(ctx).getByRole('alert')).toContainText('maximum number of passkeys');
    withDb((db) => {
      for (const id of fillers) db.prepare('DELETE FROM passkeys WHERE id = ?').run(id);
    });
  },
  'getOptions fails interaction_expired': async (ctx) => {
    expireInteraction(ctx.page);
    await pressContinue(ctx);
  },

  'createCredential succeeds': async (ctx) => {
    await holdNext(ctx, savePath(ctx));
    await holdOnly(deviceOf(ctx), []);
    await answer(ctx, 'forward', 'answered');
  },
  'createCredential fails passkey_cancelled': async (ctx) => {
    const d = deviceOf(ctx);
    await holdOnly(d, []);
    await d.authenticator.userVerified(false);
    try {
      await answer(ctx, 'forward', 'NotAllowedError');
    } finally {
      await d.authenticator.userVerified(true);
    }
  },
  'createCredential fails passkey_already_registered': async (ctx) => {
    const d = deviceOf(ctx);
    await remember(d);
    const stored = new Set(storedCredentialIds(world(ctx).account.id));
    const registered = d.created.find((c) => stored.has(base64url(c.credentialId)));
    expect(registered, 'this device created one of the account\'s passkeys earlier in the case').toBeTruthy();
    await holdOnly(d, [registered!]);
    await answer(ctx, 'forward', 'InvalidStateError');
  },
  'createCredential fails passkey_unsupported': async (ctx) => {
    await answer(ctx, 'foreign-rp', 'SecurityError');
  },
  'after ceremonyTimeout': async (ctx) => {
    await outwait(ctx.page, 'create');
  },

  'save succeeds': async (ctx) => {
    await release(ctx);
    await remember(deviceOf(ctx));
  },
  'save fails passkey_challenge_invalid': async (ctx) => {
    // the challenge the held answer signed has expired (its 5 minutes passed)
    withDb((db) => db.prepare('UPDATE webauthn_challenges SET expires_at = 0 WHERE account_id = ?').run(world(ctx).account.id));
    await release(ctx);
  },
  'save fails interaction_expired': async (ctx) => {
    expireInteraction(ctx.page);
    await release(ctx);
  },
};

/** What the last failing step should read in words (the name step shows the last failure). */
const FAILURE_WORDS: Record<string, string> = {
  'createCredential fails passkey_cancelled': 'The passkey request was cancelled or timed out',
  'createCredential fails passkey_already_registered': 'This passkey is already registered',
  'createCredential fails passkey_unsupported': 'This browser or device cannot use passkeys here',
  'after ceremonyTimeout': 'Your device did not answer in time',
  'getOptions fails passkey_limit_reached': 'You have registered the maximum number of passkeys',
  'getOptions fails network': 'The server cannot be reached',
  'save fails passkey_challenge_invalid': 'This passkey request has expired or was already used',
};

const screens: MachineDriver['screens'] = {
  'screen:passkey-add.card': async (ctx) => {
    await expect(card(ctx).getByRole('heading', { name: 'Passkeys' })).toBeVisible();
    await expect(card(ctx).getByRole('button', { name: 'Add a passkey', exact: true })).toBeVisible();
    for (const name of world(ctx).saved) await expect(card(ctx).getByText(name, { exact: true }).first()).toBeVisible();
  },
  'screen:passkey-add.name': async (ctx) => {
    const form = nameForm(ctx);
    await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(/\S/);
    await expect(form.getByRole('button', { name: 'Continue', exact: true })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(world(ctx).enrolment ? 0 : 1);
    const words = FAILURE_WORDS[ctx.step?.key ?? ''];
    if (words) await expect(form.getByRole('alert')).toContainText(words);
  },
  'screen:passkey-add.prompt': async (ctx) => {
    const view = promptView(ctx);
    const loading = /saving/.test(ctx.step?.state ?? '');
    await expect(view.getByRole('status')).toHaveText(loading ? 'Saving the passkey…' : "Follow your browser's prompt to create the passkey.");
    if (!loading) {
      await expect(view.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(world(ctx).enrolment ? 0 : 1);
      await waitForPrompt(ctx.page, 'create');
    }
  },
  'screen:passkey-add.added': async (ctx) => {
    const notice = card(ctx).getByText(/^Passkey added: /);
    await expect(notice).toBeVisible();
    const added = /^Passkey added: (.+)$/.exec(((await notice.textContent()) ?? '').trim())?.[1];
    expect(added, '"Passkey added: <name>" names the passkey').toBeTruthy();
    world(ctx).saved.push(added!);
    await expect(card(ctx).getByRole('button', { name: 'Done', exact: true })).toBeVisible();
    await expect(card(ctx).getByRole('listitem').filter({ hasText: added! }).first()).toBeVisible();
  },
};

async function openProfile(ctx: DriverContext): Promise<void> {
  const account = await createAccount(ctx, { method: null });
  ctx.world = { ...ctx.world, account, enrolment: false, saved: [] };
  await ctx.page.goto('/login');
  await expect(ctx.page).toHaveURL(/\/login\?interaction=/);
  await fillCredentials(ctx.page, account.email, PASSWORD);
  await expect(ctx.page.getByRole('heading', { level: 1, name: 'Welcome, Walk!' })).toBeVisible();
  await ctx.page.getByRole('button', { name: 'Account menu' }).click();
  await ctx.page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(ctx.page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await card(ctx).scrollIntoViewIfNeeded();
}

async function openEnrolment(ctx: DriverContext): Promise<void> {
  updatePolicy((policy) => ({ ...policy, admins: 'passkey' }));
  ctx.world.admin = true;
  const account = await createAccount(ctx, { method: null });
  ctx.world = { ...ctx.world, account, enrolment: true, saved: [] };
  await ctx.page.goto('/admin/login');
  await expect(ctx.page).toHaveURL(/\/admin\/login\?interaction=/);
  await fillCredentials(ctx.page, account.email, PASSWORD, 'en');
  await expect(ctx.page.getByRole('heading', { level: 1, name: 'Add a passkey to continue' })).toBeVisible();
}

export const passkeyRegistrationDriver: MachineDriver = {
  machine: 'passkeyRegistration',
  start: {
    profile: openProfile,
    'enrolment at sign-in': openEnrolment,
  },
  steps,
  screens,
  finish: async (ctx) => {
    await ctx.page.unrouteAll({ behavior: 'ignoreErrors' });
    if (world(ctx).enrolment) updatePolicy((policy) => ({ ...policy, admins: 'none' }));
  },
};
