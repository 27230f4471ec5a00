/**
 * QA words of the session machine (machines/session.machine.ts, model machines/session.model.ts): how a person
 * starts, performs every step key the session's graph can take, and checks every screen. The browser walk
 * (e2e/paths/session.driver.ts) does the same in Chromium against the real server.
 *
 * The session's screens are the area layouts, rendered with `data-screen` on their root
 * (`SessionScreenRoot`, src/lib/session-context.tsx):
 * - `screen:session.signed-out`: a public layout (sign-in, forgot/reset password, verify) with no stored token;
 * - `screen:session.signed-in`: the user layout (home, profile) or the admin shell, the token stored;
 * - `screen:session.signing-out`: the layout still shown while the session revokes the grant (POST /api/logout)
 *   before it clears the tokens; it passes as fast as that request.
 *
 * Steps that fold a person's action with the request it starts (machines/testing/qa.ts `foldSteps`) are keyed by
 * the request's outcome: "make the access token expire, then open a page" is `refreshTokens succeeds`.
 */
import type { MachineQa } from './testing/qa';

const steps: MachineQa['steps'] = {
  start: 'Open /login in a fresh browser profile (nothing stored). The sign-in form shows.',

  'TOKENS_RECEIVED user': 'Sign in on /login with a user account (e-mail, password). The home page opens.',
  'TOKENS_RECEIVED admin': 'Sign in on /admin/login with an admin account. The admin dashboard opens.',
  'TOKENS_RECEIVED user with locale it':
    'As a guest, pick English in the footer; then sign in with a user whose profile language is Italian. The home page opens in Italian and the stored `locale` is now `it` (the account wins over the guest choice).',

  REQUEST_UNAUTHORIZED:
    'Make the access token expire while the token endpoint does not answer yet (e.g. a proxy holds it), then open a page that loads data. The page waits.',
  'refreshTokens succeeds':
    'Make the access token expire (signed in, the server refuses the stored access token), then open a page that loads data. The data loads without a new sign-in; the stored token holds a new access and refresh token.',
  'refreshTokens fails invalid_grant':
    'Revoke the session on the server (its grant), then open a page that loads data. The refresh is refused and the session signs out.',

  LOGOUT: 'Open the user menu and press Logout while the server has not answered the logout call yet. The page waits.',
  'revokeTokens succeeds':
    'Open the user menu and press Logout (or let a refused token end the session). The server ends the session (POST /api/logout), the provider confirms the sign-out and the sign-in page of the same area opens.',
  'revokeTokens fails invalid_token':
    'Press Logout after the server already ended the session (or after a refused refresh). The logout call answers 401; the sign-out goes on to the sign-in page all the same.',

  'STORAGE_CHANGED tokens added': 'Sign in (or refresh) in another tab of the same browser. This tab follows: it is signed in with the same tokens.',
  'STORAGE_CHANGED tokens removed':
    'In another tab of the same browser, remove the stored token (log out there, or delete the `token` key in the developer tools) while the server has not answered this tab yet. This tab waits.',
  'revokeElsewhere succeeds':
    'In another tab of the same browser, delete the stored `token` key (developer tools). This tab ends its session on the server too and shows its sign-in page (no silent sign-in again, the token stays gone).',
  'revokeElsewhere fails invalid_token':
    'Log out in another tab of the same browser. This tab shows its sign-in form cleanly (no "Sign-in could not be completed", no `code` in the address).',

  PUBLIC_LINK_OPENED: 'While signed in, open a password reset or invitation link while the server has not answered the logout call yet. The page waits.',
  'revokeForLink succeeds':
    'While signed in, open a password reset link from a mail. The session ends on the server, the stored token is removed and the reset form shows (no reload); other tabs sign out too.',
  'revokeForLink fails network':
    'While signed in and with the network to the server failing for the logout call, open a password reset link. The stored token is removed anyway and the reset form shows.',

  LANGUAGE_CHANGED: 'Signed in, pick Deutsch in the language picker while the server has not answered the profile save yet. The page is German already.',
  'saveLocale succeeds': 'Signed in, pick Deutsch in the language picker. The page turns German and the profile keeps German (it is German after the next sign-in too).',
  'saveLocale fails network': 'Signed in and with the network failing for the profile save, pick Deutsch. The page turns German all the same; the profile keeps its language.',
};

const screens: MachineQa['screens'] = {
  'screen:session.signed-out': 'A public page (sign-in form, reset form…) shows; no user menu; the browser stores no `token`.',
  'screen:session.signed-in': 'The signed-in layout shows (home or admin dashboard with the user menu); the browser stores a `token`.',
  'screen:session.signing-out': 'The page waits for the server to end the session; nothing new can be opened meanwhile.',
};

export const sessionQa: MachineQa = {
  machine: 'session',
  scenarios: { 'signed out at start': 'A fresh browser profile: nothing stored, nobody signed in.' },
  steps,
  screens,
};

/** The same words for the context model (shortest path to every tokens/admin/locale/error variant). */
export const sessionContextQa: MachineQa = {
  ...sessionQa,
  machine: 'session-context',
  scenarios: {
    ...sessionQa.scenarios,
    'signed in at start': 'Sign in on /login with a user account, then open the home page again (the stored session is restored).',
  },
};
