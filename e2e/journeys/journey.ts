/**
 * Journeys (issue 29): a person signs in through the form and then moves only by clicks — sidebar, buttons, menus,
 * links — no page.goto after the first page and no API call in the middle. What a journey needs (accounts, a role, a
 * subscription, an app) is set up through the API before it starts.
 *
 * `Journey` wraps the page with the person's language (names of controls come from the catalogs, e2e/screens/catalog.ts)
 * and checks the guard (e2e/fixtures.ts) after each step, so a raw message id or a crash names the step it came in.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, type Guard } from '../fixtures';
import { createUserWithPassword, linkFromOutbox, type NewUser } from '../helpers';
import { tr, type ScreenLang } from '../screens/catalog';

export const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
export type Width = keyof typeof WIDTHS;

export class Journey {
  readonly steps: string[] = [];
  constructor(
    readonly page: Page,
    readonly lang: ScreenLang,
    readonly guard: Guard,
    readonly width: Width,
  ) {}

  /** The person's language's text of an English source message. */
  t(source: string): string {
    return tr(this.lang, source);
  }

  /** The same, as an exact-match pattern for accessible names (with `{placeholders}` as wildcards). */
  re(source: string): RegExp {
    const translated = this.t(source);
    const parts = translated.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${parts.join('.+')}$`);
  }

  /** Runs a step; then nothing may have crashed, logged an error or shown a raw id. */
  async step(name: string, body: () => Promise<void>): Promise<void> {
    this.steps.push(name);
    const started = Date.now();
    await body();
    if (process.env.JOURNEY_TIMING) console.log(`[journey] ${this.lang} ${this.width} ${name}: ${Date.now() - started} ms`);
    this.guard.check(`${this.lang} ${this.width}: ${name}`);
  }

  /** Text on the page, not its copy in a live region (what a swap announces is the new content's own text). */
  text(source: string): Locator {
    return this.page.getByText(this.t(source)).and(this.page.locator(':not([aria-live])'));
  }

  async heading(source: string, level = 1): Promise<void> {
    await expect(this.page.getByRole('heading', { level, name: this.re(source) }).first()).toBeVisible();
  }

  button(source: string, scope: Page | Locator = this.page): Locator {
    return scope.getByRole('button', { name: this.re(source) }).first();
  }

  /** The console's sidebar item (at 390 px, through the navigation drawer). */
  async nav(source: string): Promise<void> {
    if (this.width === 'phone') {
      await this.page.getByRole('button', { name: this.t('Open navigation') }).click();
      const drawer = this.page.getByRole('dialog');
      await drawer.getByRole('link', { name: this.t(source) }).click();
      await expect(drawer).toBeHidden();
    } else {
      await this.page.getByRole('navigation', { name: this.t('Main navigation') }).getByRole('link', { name: this.t(source) }).click();
    }
  }

  /** Opens the account menu and clicks one of its items. */
  async accountMenu(item: string): Promise<void> {
    await this.page.getByRole('button', { name: this.t('Account menu') }).click();
    await this.page.getByRole('menuitem', { name: this.t(item) }).click();
  }

  /** Opens a dialog with a click, checks its heading, closes it with a click on `close` (default Cancel). */
  async dialog(open: Locator, heading: string, close = 'Cancel'): Promise<Locator> {
    await open.click();
    const dialog = this.page.getByRole('dialog').or(this.page.getByRole('alertdialog')).last();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { name: this.re(heading) }).first()).toBeVisible();
    await dialog.getByRole('button', { name: this.re(close) }).last().click();
    await expect(dialog).toBeHidden();
    return dialog;
  }

  /** Opens the language select and closes it again by choosing the current language. */
  async languageMenu(current: string): Promise<void> {
    await this.page.getByRole('combobox', { name: this.t('Language') }).first().click();
    await expect(this.page.getByRole('listbox').first()).toBeVisible();
    await this.page.getByRole('option', { name: current }).click();
  }
}

/** The bootstrap admin's token: set-up calls before the journeys only. */
export async function createAdminAccount(request: APIRequestContext, token: string, admin: NewUser & { role: 'super_admin' | 'manager' }): Promise<void> {
  const created = await request.post('/api/admin/admins', {
    headers: { Authorization: `Bearer ${token}` },
    data: { email: admin.email, first_name: admin.first, last_name: admin.last, role: admin.role, locale: admin.locale ?? 'en' },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const invitation = await linkFromOutbox(admin.email, /https?:\/\/[^\s"<>]+\/verify\/admin\?url=[^\s"<>]+/);
  const url = new URL(invitation).searchParams.get('url');
  const verified = await request.post('/api/admin/verify', { data: { url, password: admin.password, password_confirmation: admin.password } });
  expect(verified.ok(), await verified.text()).toBeTruthy();
}

export { createUserWithPassword };
