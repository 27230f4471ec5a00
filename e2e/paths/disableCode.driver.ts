/**
 * Browser driver of the SMS that turns SMS two-factor off (machines/disableCode.qa.ts; interface in ./driver.ts),
 * against the real server: a fresh user per case whose SMS two-factor is turned on through the API after signing
 * in, on /profile (the two-factor walk's `startCase`). The SMS comes from the outbox (sms.log); the server's 30 s window for this SMS is opened or
 * closed in the SQLite file (rate_counters); a network failure is `route.abort()`; a step whose answer the path
 * never takes holds its request until the case ends.
 */
import { expect, type Locator, type Route } from '@playwright/test';
import { nextSmsCode, smsTo } from '../helpers';
import type { DriverContext, MachineDriver } from './driver';
import { smsWindow, startCase } from './twoFactorSetup.driver';

const SEND = '**/api/2fa/sms/send';

/** The part of the two-factor walk's world (startCase) this driver uses. */
interface World {
  accountId: string;
  phone: string;
  held: Route[];
}

const world = (ctx: DriverContext): World => ctx.world as unknown as World;
const area = (ctx: DriverContext): Locator => ctx.page.locator('[data-screen^="screen:2fa-code."]');
const sendButton = (ctx: DriverContext): Locator => area(ctx).getByRole('button', { name: 'Send code by SMS' });

/** Presses "Send code by SMS" with the server's 30 s window open, and waits for the SMS. */
async function sendAndReceive(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  smsWindow(w, 'sms_disable', true);
  const before = smsTo(w.phone).length;
  await sendButton(ctx).click();
  ctx.world.smsCode = (await nextSmsCode(w.phone, before)).code;
}

export const disableCodeDriver: MachineDriver = {
  machine: 'disableCode',
  start: {
    'SMS two-factor on, turning it off with a one-time password': async (ctx) => {
      await startCase(ctx, { phone: true, sms: true });
      const section = ctx.page.locator('section[aria-labelledby="two-factor-heading"]');
      await expect(section).toContainText('On — codes by SMS');
      await expect(section.getByRole('radio', { name: 'One time password', exact: true })).toBeChecked();
    },
  },
  steps: {
    start: async (ctx) => {
      await area(ctx).scrollIntoViewIfNeeded();
    },
    // a lone SEND (its answer not in the case): the request is held, the button stays busy
    SEND: async (ctx) => {
      await ctx.page.route(SEND, (route) => {
        world(ctx).held.push(route);
      });
      await sendButton(ctx).click();
      await expect(sendButton(ctx)).toBeDisabled();
      await expect(sendButton(ctx)).toHaveAttribute('aria-busy', 'true');
    },
    'sendCode succeeds': sendAndReceive,
    'sendCode fails too_many_requests': async (ctx) => {
      const w = world(ctx);
      smsWindow(w, 'sms_disable', false);
      const before = smsTo(w.phone).length;
      await sendButton(ctx).click();
      await expect(area(ctx).getByRole('alert')).toBeVisible();
      expect(smsTo(w.phone)).toHaveLength(before);
    },
    'sendCode fails network': async (ctx) => {
      await ctx.page.route(SEND, (route) => route.abort('internetdisconnected'), { times: 1 });
      await sendButton(ctx).click();
    },
  },
  screens: {
    'screen:2fa-code.ready': async (ctx) => {
      await expect(area(ctx)).toHaveAttribute('data-screen', 'screen:2fa-code.ready');
      await expect(sendButton(ctx)).toBeVisible();
      await expect(area(ctx).getByRole('status')).toHaveText('It may take up to a minute to arrive.');
      const key = ctx.step?.key ?? '';
      const alert = area(ctx).getByRole('alert');
      if (key === 'sendCode fails too_many_requests') await expect(alert).toHaveText(/^Please wait \d+ seconds? before asking for another code\.$/);
      // a cut-off request reads as the network's words (the account area's code -> words table, issue 32.2)
      else if (key === 'sendCode fails network') await expect(alert).toHaveText('The server cannot be reached. Check your connection and try again.');
      else await expect(alert).toHaveCount(0);
    },
    'screen:2fa-code.sent': async (ctx) => {
      await expect(area(ctx)).toHaveAttribute('data-screen', 'screen:2fa-code.sent');
      await expect(area(ctx).getByRole('status')).toHaveText(`Code sent to ${world(ctx).phone}. It may take up to a minute to arrive.`);
      await expect(sendButton(ctx)).toBeEnabled();
      await expect(area(ctx).getByRole('alert')).toHaveCount(0);
      expect(ctx.world.smsCode).toMatch(/^\d{6}$/);
    },
  },
  finish: async (ctx) => {
    for (const route of world(ctx).held ?? []) await route.abort().catch(() => undefined);
  },
};
