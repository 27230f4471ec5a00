/**
 * Sessions and devices (issue 33): the signed-in person's live sessions (users: /api/user/sessions…, admins:
 * /api/admin/sessions…) and an admin's view of a user's sessions. A session is one browser's sign-in at the provider;
 * ending it ends its grants, refresh tokens and access tokens (server/services/sessions.ts, docs/ACCOUNT-SECURITY.md).
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { dataOf } from './common';
import type { AccountKind } from './account';

export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet'] as const;

export const sessionSchema = z
  .object({
    id: z.string().describe("the session's id (its provider uid)"),
    current: z.boolean().describe('the session of the request (the caller\'s own browser); always false in an admin\'s view of another account'),
    browser: z.string().nullable().describe('from the User-Agent; null when not recognised'),
    browser_version: z.string().nullable(),
    os: z.string().nullable(),
    device_type: z.enum(DEVICE_TYPES),
    ip_address: z.string().nullable().describe('the client address at sign-in'),
    place: z.string().nullable().describe('ISO 3166-1 alpha-2 country at sign-in, only when the operator configured IAM_PLACE_HEADER'),
    signed_in_at: z.string(),
    last_used_at: z.string().describe('last sign-in to an app or token refresh through this session (written at most once a minute)'),
    apps: z.array(z.object({ client_id: z.string(), name: z.string().nullable().describe("a service app's display name; null for the portal and the admin console") })),
  })
  .describe('Session');
export type SessionView = z.infer<typeof sessionSchema>;

export const sessionParams = z.object({ session: z.string().min(1).max(64) });
export const endedAnswer = dataOf(z.object({ ended: z.number().int().describe('the number of sessions ended') }));

const tagOf = <K extends AccountKind>(kind: K) => `profile: ${kind}` as const;

function listOwnSessions<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'GET', path: `/api/${kind}/sessions`, tag: tagOf(kind), access: kind,
    summary: 'The live sessions of the signed-in account (this browser first, marked `current`)',
    response: dataOf(z.array(sessionSchema)),
    errors: { 401: ['unauthorized'], 403: ['forbidden'] },
  });
}

function endOwnSession<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'DELETE', path: `/api/${kind}/sessions/:session`, tag: tagOf(kind), access: kind,
    summary: "End one of the account's sessions: its grants, refresh and access tokens end; its apps get a back-channel logout. Audited. 404 for a session of another account",
    params: sessionParams,
    response: endedAnswer,
    errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['session_not_found'] },
  });
}

function endOtherSessions<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `/api/${kind}/sessions/end-others`, tag: tagOf(kind), access: kind,
    summary: "End every session of the account except this browser's. Audited",
    response: endedAnswer,
    errors: { 401: ['unauthorized'], 403: ['forbidden'] },
  });
}

export const listUserSessions = listOwnSessions('user');
export const listAdminSessions = listOwnSessions('admin');
export const endUserSession = endOwnSession('user');
export const endAdminSession = endOwnSession('admin');
export const endOtherUserSessions = endOtherSessions('user');
export const endOtherAdminSessions = endOtherSessions('admin');

/** The endpoints of one kind of account. */
export const byKind = {
  user: { list: listUserSessions, end: endUserSession, endOthers: endOtherUserSessions },
  admin: { list: listAdminSessions, end: endAdminSession, endOthers: endOtherAdminSessions },
} as const;
