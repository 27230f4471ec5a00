/** An admin's view of a user's sessions (the user information page); "end all" is adminUsers.endUserSessions. */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { dataOf, idParams } from '../common';
import { endedAnswer, sessionParams, sessionSchema } from '../sessions';

export const listUserSessionsOfUser = defineEndpoint({
  method: 'GET', path: '/api/admin/users/:id/sessions', tag: 'admin: users', access: 'admin',
  summary: "A user's live sessions (newest use first)",
  params: idParams,
  response: dataOf(z.array(sessionSchema)),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found'] },
});

export const endSessionOfUser = defineEndpoint({
  method: 'DELETE', path: '/api/admin/users/:id/sessions/:session', tag: 'admin: users', access: 'admin',
  summary: "End one of a user's sessions (its apps get a back-channel logout). Audited as user.session_ended",
  params: idParams.extend(sessionParams.shape),
  response: endedAnswer,
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found', 'session_not_found'] },
});
