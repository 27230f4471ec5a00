/**
 * Toasts cover no control (issue 29, WCAG 2.4.11): at 1440 and 390 px, in the user area and the admin console, a
 * toast raised by a click does not intersect the header's language picker or account menu, pauses while hovered or
 * focused, and a person can open the account menu and sign out while it shows. Moves as a person does: signs in
 * through the form, then clicks only.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ARTIFACTS, createAdminWithPassword, createUserWithPassword, fillCredentials, gotoSignIn, superAdminToken, userSignIn } from './helpers';

const RUN = Date.now().toString(36);
const PASSWORD = 'Analytical-Engine1!';
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box');
  return box;
}

/** Saves personal information by clicks (account menu → Profile → Save changes) and checks the toast it raises. */
async function raiseToastAndCheck(page: Page, width: number, area: 'user' | 'admin', firstName: string): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await page.getByRole('textbox', { name: 'First name' }).fill(firstName);
  await page.getByRole('button', { name: 'Save changes' }).click();
  const toast = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: 'Personal information saved' });
  await expect(toast).toBeVisible();
  // let its entry transition settle before measuring
  await expect.poll(async () => (await toast.evaluate((el) => getComputedStyle(el).opacity)) === '1').toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/findings-toast-${area}-${width}-en.png` });

  const box = await boxOf(toast);
  const header = page.locator('header').first();
  const controls = [header.getByRole('combobox', { name: 'Language' }), header.getByRole('button', { name: 'Account menu' })];
  for (const control of controls) {
    await expect(control).toBeVisible();
    expect(intersects(box, await boxOf(control)), `toast ${JSON.stringify(box)} over a header control at ${width} px`).toBe(false);
  }
  // wide: in the header band; phones: in the lane right under the header, which pushes the page down: no control of
  // the page under it either
  if (width >= 1024) expect(box.y + box.height).toBeLessThanOrEqual(64);
  else {
    const headerBox = await boxOf(header);
    expect(box.y).toBeGreaterThanOrEqual(Math.max(0, headerBox.y + headerBox.height) - 1);
    expect(box.y).toBeLessThan(Math.max(0, headerBox.y + headerBox.height) + 24);
    // the band pushed the page down by its height: what is under it now was under the header before (a control cut by
    // the header's edge may stay cut by the band's), so no control has its middle under the toast
    const under = await page.locator('main').evaluate((main, t) => {
      const hits: string[] = [];
      for (const el of Array.from(main.querySelectorAll('a[href], button, input, select, textarea, [role=button], [role=combobox]'))) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (x > t.x && x < t.x + t.width && y > t.y && y < t.y + t.height) hits.push(el.getAttribute('aria-label') ?? el.getAttribute('name') ?? (el.textContent ?? el.tagName).trim());
      }
      return hits;
    }, box);
    expect(under, `page controls under the toast at ${width} px`).toEqual([]);
  }

  // hovering pauses it, and so does focusing its close button
  await toast.hover();
  await expect(toast).toHaveAttribute('data-paused', '');
  await page.mouse.move(1, page.viewportSize()!.height / 2);
  await expect(toast).not.toHaveAttribute('data-paused', '');
  await toast.getByRole('button', { name: 'Dismiss notification' }).focus();
  await expect(toast).toHaveAttribute('data-paused', '');

  // signing out while it shows: the account menu opens and Logout is clickable (no toast over it)
  await page.getByRole('button', { name: 'Account menu' }).click();
  const logout = page.getByRole('menuitem', { name: 'Logout' });
  await expect(toast).toBeVisible();
  await logout.click({ trial: true }); // fails when another element would receive the click
  await logout.click();
  await expect(page).toHaveURL(area === 'admin' ? /\/admin\/login\?interaction=/ : /\/login\?interaction=/, { timeout: 20_000 });
}

test.describe('toasts cover no control', () => {
  let adminToken = '';
  test.beforeAll(async ({ browser }) => {
    adminToken = await superAdminToken(browser);
  });

  for (const viewport of WIDTHS) {
    test(`user area at ${viewport.width} px`, async ({ page, request }) => {
      await page.setViewportSize(viewport);
      const user = { email: `toast.${viewport.width}.${RUN}@example.com`, first: 'Tess', last: 'Toast', password: PASSWORD };
      await createUserWithPassword(request, adminToken, user);
      await userSignIn(page, user.email, user.password);
      await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();
      await raiseToastAndCheck(page, viewport.width, 'user', 'Tessa');
    });

    test(`admin console at ${viewport.width} px`, async ({ page, request }) => {
      await page.setViewportSize(viewport);
      const admin = { email: `toast.admin.${viewport.width}.${RUN}@example.com`, first: 'Tom', last: 'Toast', password: PASSWORD };
      await createAdminWithPassword(request, adminToken, admin);
      await gotoSignIn(page, '/admin/login');
      await fillCredentials(page, admin.email, admin.password);
      await expect(page).toHaveURL(/\/admin\/dashboard/);
      await raiseToastAndCheck(page, viewport.width, 'admin', 'Thomas');
    });
  }
});
