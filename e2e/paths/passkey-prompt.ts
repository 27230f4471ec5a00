/**
 * The browser's passkey prompt, held open for the statechart walks (issue 33).
 *
 * Chromium's virtual authenticator (e2e/webauthn.ts) answers a ceremony the moment it starts, or never: there is no
 * "the prompt is open, the person has not answered yet" in between, which is exactly where the walk checks the page
 * ("Follow your browser's prompt…" with Cancel) and where Cancel, the page's own time-out and a cut network happen.
 * So every page of a walk context runs this init script first: `navigator.credentials.create()` / `.get()` are
 * held, as a prompt a person has not answered is. The walk then answers a held ceremony in one of these ways:
 *
 * - `forward`: the held call goes to the browser's real WebAuthn API with the very options the page gave, answered by
 *   the virtual authenticator as the driver set it up (its credentials, user verification refused or not). What the
 *   page gets back (a credential, NotAllowedError, InvalidStateError) is the browser's own.
 * - `foreign-rp`: the same, with the relying-party id of another site: the browser itself refuses it
 *   (SecurityError), as on a page whose host name is not the configured one.
 * - not at all, and the page's clock runs past the ceremony's time-out (`page.clock`, installed before the page
 *   loads): the page's own time-out fires and aborts the held call.
 *
 * An abort by the page (Cancel, a new ceremony replacing the autofill one, the time-out) rejects the held call with
 * the signal's reason, as the browser does. Nothing else of the page is changed.
 */
import { expect, type BrowserContext, type Page, type Route } from '@playwright/test';
import { CEREMONY_GRACE_MS, DEFAULT_CEREMONY_TIMEOUT_MS } from '../../machines/passkeyRegistration.machine';
import { parsePolicy, POLICY_SETTING } from '../../server/services/passkeys';
import type { SecondFactorPolicy } from '../../contract/passkeys';
import { withDb } from '../helpers';
import { addVirtualAuthenticator, type VirtualAuthenticator, type VirtualCredential } from '../webauthn';
import type { DriverContext } from './driver';

export type CeremonyKind = 'create' | 'get';

interface HeldInfo {
  id: number;
  kind: CeremonyKind;
  conditional: boolean;
  timeout: number | null;
}

/** Runs in every page before its scripts. */
function promptHolder(): void {
  type Held = { id: number; kind: 'create' | 'get'; conditional: boolean; options: CredentialCreationOptions | CredentialRequestOptions; resolve: (c: Credential | null) => void; reject: (e: unknown) => void };
  const w = window as unknown as { __passkeyPrompt?: { held: () => unknown[]; answer: (id: number, how: string, rpId?: string) => Promise<string> } };
  if (w.__passkeyPrompt || !navigator.credentials) return;
  const real = { create: navigator.credentials.create.bind(navigator.credentials), get: navigator.credentials.get.bind(navigator.credentials) };
  let next = 1;
  let held: Held[] = [];
  const hold = (kind: 'create' | 'get', options: CredentialCreationOptions | CredentialRequestOptions | undefined) =>
    new Promise<Credential | null>((resolve, reject) => {
      const opts = options ?? {};
      const signal = opts.signal;
      if (signal?.aborted) return reject(signal.reason);
      const entry: Held = { id: next++, kind, conditional: (opts as CredentialRequestOptions).mediation === 'conditional', options: opts, resolve, reject };
      signal?.addEventListener('abort', () => {
        if (!held.includes(entry)) return;
        held = held.filter((h) => h !== entry);
        reject(signal.reason);
      });
      held.push(entry);
    });
  navigator.credentials.create = (options?: CredentialCreationOptions) => hold('create', options);
  navigator.credentials.get = (options?: CredentialRequestOptions) => hold('get', options);
  w.__passkeyPrompt = {
    held: () =>
      held.map((h) => {
        const pk = (h.options as { publicKey?: { timeout?: number } }).publicKey;
        return { id: h.id, kind: h.kind, conditional: h.conditional, timeout: pk?.timeout ?? null };
      }),
    answer: async (id, how, rpId) => {
      const entry = held.find((h) => h.id === id);
      if (!entry) return 'gone';
      held = held.filter((h) => h !== entry);
      let options = entry.options;
      if (how === 'foreign-rp') {
        const pk = (options as unknown as { publicKey: Record<string, unknown> }).publicKey;
        options =
          entry.kind === 'create'
            ? { ...options, publicKey: { ...pk, rp: { ...(pk.rp as object), id: rpId } } as PublicKeyCredentialCreationOptions }
            : { ...options, publicKey: { ...pk, rpId } as PublicKeyCredentialRequestOptions };
      }
      try {
        entry.resolve(await (entry.kind === 'create' ? real.create(options as CredentialCreationOptions) : real.get(options as CredentialRequestOptions)));
        return 'answered';
      } catch (e) {
        entry.reject(e);
        return (e as { name?: string }).name ?? 'Error';
      }
    },
  };
}

/** A walk context's passkey device: Chromium's virtual authenticator on the page, and the holder of its prompts. */
export interface PasskeyDevice {
  authenticator: VirtualAuthenticator;
  /** Credentials this device created in the case so far (kept when the authenticator is emptied). */
  created: VirtualCredential[];
}

/** The walk context's device (e2e/paths.spec.ts gives one to the WebAuthn machines and scenarios only). */
export function deviceOf(ctx: DriverContext): PasskeyDevice {
  if (!ctx.passkeys) throw new Error('passkey steps are walked with a virtual authenticator (e2e/paths.spec.ts WEBAUTHN_MACHINES / WEBAUTHN_SCENARIOS)');
  return ctx.passkeys;
}

/** Before the context's first page loads: the prompt holder in every page, and the page clock (for time-outs). */
export async function prepareContext(context: BrowserContext): Promise<void> {
  await context.addInitScript(promptHolder);
  await context.clock.install();
}

/** A platform authenticator (resident keys, user verification) attached to the page. */
export async function attachDevice(page: Page): Promise<PasskeyDevice> {
  return { authenticator: await addVirtualAuthenticator(page, { backupEligible: true }), created: [] };
}

async function heldNow(page: Page): Promise<HeldInfo[]> {
  return page.evaluate(() => (window as unknown as { __passkeyPrompt?: { held: () => HeldInfo[] } }).__passkeyPrompt?.held() ?? []);
}

/** Waits until the page asks for a ceremony of this kind (modal unless `conditional`), and returns it. */
export async function waitForPrompt(page: Page, kind: CeremonyKind, conditional = false): Promise<HeldInfo> {
  let found: HeldInfo | undefined;
  await expect
    .poll(async () => {
      found = (await heldNow(page)).find((h) => h.kind === kind && h.conditional === conditional);
      return found !== undefined;
    }, { message: `the page asks the browser for a passkey (${kind}${conditional ? ', autofill' : ''})` })
    .toBe(true);
  return found as HeldInfo;
}

/** Whether no ceremony of this kind is held (the page aborted it). */
export async function promptClosed(page: Page, kind: CeremonyKind, conditional = false): Promise<void> {
  await expect.poll(async () => (await heldNow(page)).some((h) => h.kind === kind && h.conditional === conditional), { message: `the ${kind} prompt is closed` }).toBe(false);
}

/**
 * Answers the held ceremony through the browser's real WebAuthn API (`forward`), or as a page of another site would
 * (`foreign-rp`), and checks the browser's outcome: 'answered', or the DOMException's name. The answer reaches the
 * page's code before this returns.
 */
export async function answerPrompt(page: Page, kind: CeremonyKind, how: 'forward' | 'foreign-rp', expected: string, conditional = false): Promise<void> {
  const prompt = await waitForPrompt(page, kind, conditional);
  const outcome = await page.evaluate(
    ([id, mode]) => (window as unknown as { __passkeyPrompt: { answer: (id: number, how: string, rpId?: string) => Promise<string> } }).__passkeyPrompt.answer(id, mode, 'example.com'),
    [prompt.id, how] as [number, string],
  );
  expect(outcome, "the browser's answer to the ceremony").toBe(expected);
}

/** Lets the page's clock run past the held ceremony's time-out (the options' timeout and the machines' grace). */
export async function outwait(page: Page, kind: CeremonyKind, conditional = false): Promise<void> {
  const prompt = await waitForPrompt(page, kind, conditional);
  await page.clock.fastForward((prompt.timeout ?? DEFAULT_CEREMONY_TIMEOUT_MS) + CEREMONY_GRACE_MS + 1_000);
  await promptClosed(page, kind, conditional);
}

/** The device holds exactly these credentials (none: it creates a new one on the next `create`). */
export async function holdOnly(device: PasskeyDevice, credentials: VirtualCredential[]): Promise<void> {
  await remember(device);
  await device.authenticator.clear();
  for (const c of credentials) await device.authenticator.addCredential(c);
}

/** Keeps what the device created, so it can be given back after `holdOnly` emptied it. */
export async function remember(device: PasskeyDevice): Promise<void> {
  for (const c of await device.authenticator.credentials()) if (!device.created.some((k) => k.credentialId === c.credentialId)) device.created.push(c);
}

/** A request held on its way to the server until the step of its outcome. */
export interface HeldPost {
  release(): Promise<void>;
}

/** Holds the page's next POST to `path` (other methods, and later POSTs, pass) until `release`. */
export async function holdNextPost(page: Page, path: string): Promise<HeldPost> {
  let held: Route | undefined;
  const matcher = (url: URL) => url.pathname === path;
  const handler = async (route: Route) => {
    if (held || route.request().method() !== 'POST') return route.fallback();
    held = route;
  };
  await page.route(matcher, handler);
  return {
    release: async () => {
      await expect.poll(() => held !== undefined, { message: `the page sent POST ${path}` }).toBe(true);
      await held!.continue();
      await page.unroute(matcher, handler);
    },
  };
}

/** Changes the second-factor requirement (Settings → Second factor) in the walk server's database, as a super admin would. */
export function updatePolicy(change: (policy: SecondFactorPolicy) => SecondFactorPolicy): void {
  withDb((db) => {
    const row = db.prepare('SELECT value FROM app_settings WHERE key = ?').get(POLICY_SETTING) as { value: string } | undefined;
    const policy = change(parsePolicy(row?.value ?? null));
    db.prepare('INSERT INTO app_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(POLICY_SETTING, JSON.stringify(policy), new Date().toISOString());
  });
}
