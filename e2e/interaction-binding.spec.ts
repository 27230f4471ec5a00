import { expect, test } from './fixtures';
import { ADMIN, fillCredentials, gotoSignIn } from './helpers';

/**
 * Issue 28, finding 1, in Chromium with two browser contexts: context A (the attacker) starts the admin console's
 * authorization and keeps its cookies; context B (the admin) opens the genuine link `/admin/login?interaction=<A's uid>`.
 * B's page finds the sign-in is not its own and starts a fresh authorization for B, in which B signs in to B's own
 * session. A's resume of `/oidc/auth/<uid>` then gets no authorization code. The guard of e2e/fixtures.ts watches both
 * contexts (page errors, console errors, raw message ids).
 */
test('a login link opened in another browser: that browser signs in to its own sign-in, the one that started it gets no code', async ({ browser }) => {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const a = await contextA.newPage();
  const b = await contextB.newPage();

  // A starts the admin console's authorization and waits on the admin sign-in form
  await gotoSignIn(a, '/admin/login');
  await expect(a).toHaveURL(/\/admin\/login\?interaction=/, { timeout: 30_000 });
  await expect(a.locator('[data-screen="screen:login.credentials"]')).toBeVisible();
  const link = a.url();
  const uidA = new URL(link).searchParams.get('interaction');
  expect(uidA).toBeTruthy();

  // B opens the genuine link: its page starts B's own authorization and comes back with another interaction
  const checked = b.waitForResponse((r) => r.url().includes(`/api/interactions/${uidA}`));
  await b.goto(link, { waitUntil: 'commit' });
  expect((await checked).status()).toBe(403);
  await expect(b).toHaveURL((url) => url.pathname === '/admin/login' && url.searchParams.has('interaction') && url.searchParams.get('interaction') !== uidA);
  await expect(b.locator('[data-screen="screen:login.credentials"]')).toBeVisible();
  await fillCredentials(b, ADMIN.email, ADMIN.password);
  await expect(b).toHaveURL(/\/admin\/dashboard/);
  await expect(b.getByRole('heading', { level: 1 })).toBeVisible();

  // A resumes its authorization with its own cookies: nobody signed in to it, so no code comes back (the provider
  // asks for a sign-in again, or says the sign-in could not continue), and A holds no token
  const visited: string[] = [];
  a.on('framenavigated', (frame) => {
    if (frame === a.mainFrame()) visited.push(frame.url());
  });
  await a.goto(`/oidc/auth/${uidA}`);
  await expect(a.getByRole('heading', { level: 1 })).toHaveText(/Admin sign in|Sign-in could not continue/);
  expect(visited.length).toBeGreaterThan(0);
  expect(visited.filter((url) => /[?&]code=/.test(url))).toEqual([]);
  expect(await a.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

  await contextA.close();
  await contextB.close();
});
