/** Browser driver of the invitation resend (machines/invitationResend.machine.ts) on the user page. */
import { expect } from '@playwright/test';
import { adminSignIn, apiToken } from '../helpers';
import type { DriverContext, MachineDriver } from './driver';

const INVITE = '**/api/admin/users/*/invite';

async function createUser(ctx: DriverContext): Promise<string> {
  const token = await apiToken(ctx.page);
  const email = `invite-${Date.now()}-${Math.floor(Math.random() * 1e6)}@paths.test`;
  const res = await ctx.request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${token}` },
    data: { email, first_name: 'Invi', last_name: 'Tee', locale: 'en', auth_type: 'CREDENTIALS' },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  ctx.world.userId = id;
  ctx.world.email = email;
  ctx.world.token = token;
  return id;
}

const sendButton = (ctx: DriverContext) => ctx.page.locator('[data-screen^="screen:invite."]').getByRole('button', { name: 'Send invitation' });

export const invitationResendDriver: MachineDriver = {
  machine: 'invitationResend',
  start: {
    'user page of a user who has not verified yet': async (ctx) => {
      await adminSignIn(ctx.page);
      const id = await createUser(ctx);
      await ctx.page.goto(`/admin/user-information/${id}`);
    },
  },
  steps: {
    // a lone SEND (its outcome not yet in the case): the request is held, so the button shows busy
    SEND: async (ctx) => {
      await ctx.page.route(INVITE, () => undefined);
      await sendButton(ctx).click();
      await expect(sendButton(ctx)).toBeDisabled();
    },
    RETRY: async (ctx) => {
      await ctx.page.route(INVITE, () => undefined);
      await ctx.page.getByRole('button', { name: 'Try again' }).click();
    },
    'sendInvitation succeeds': async (ctx) => {
      await ctx.page.unroute(INVITE);
      await ctx.page.getByRole('button', { name: /^(Send invitation|Try again)$/ }).click();
    },
    'sendInvitation fails network': async (ctx) => {
      await ctx.page.unroute(INVITE);
      await ctx.page.route(INVITE, (route) => route.abort('internetdisconnected'));
      await ctx.page.getByRole('button', { name: /^(Send invitation|Try again)$/ }).click();
      await expect(ctx.page.locator('[data-screen="screen:invite.failed"]')).toBeVisible();
      await ctx.page.unroute(INVITE);
    },
    'sendInvitation fails already_verified': async (ctx) => {
      await ctx.page.unroute(INVITE);
      const res = await ctx.request.post('/api/admin/user/verify-manually', { headers: { Authorization: `Bearer ${String(ctx.world.token)}` }, data: { uuid: ctx.world.userId } });
      expect(res.ok()).toBeTruthy();
      await ctx.page.getByRole('button', { name: /^(Send invitation|Try again)$/ }).click();
    },
  },
  screens: {
    'screen:invite.ready': async (ctx) => {
      await expect(sendButton(ctx)).toBeVisible();
    },
    'screen:invite.sent': async (ctx) => {
      await expect(ctx.page.getByRole('status').filter({ hasText: `Invitation sent to ${String(ctx.world.email)}` })).toBeVisible();
    },
    'screen:invite.failed': async (ctx) => {
      const outcome = ctx.events.at(-1) as { error?: { code?: string; kind?: string } } | undefined;
      const text = outcome?.error?.code === 'already_verified' ? 'This account is already verified' : 'The server cannot be reached; check the connection and try again';
      await expect(ctx.page.locator('[data-screen="screen:invite.failed"]').getByRole('alert')).toHaveText(text);
    },
  },
  finish: async (ctx) => {
    await ctx.page.unrouteAll({ behavior: 'ignoreErrors' });
  },
};
