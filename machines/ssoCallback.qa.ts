/**
 * QA words of the SSO callback machine (machines/testing/qa.ts): how a tester starts each scenario of
 * ssoCallback.model.ts, performs each step key, and checks each screen. The browser walk performs the same keys
 * in e2e/paths/ssoCallback.driver.ts.
 *
 * "The SPA's own sign-in" is the authorization code flow of the portal (or the admin console) against this IAM:
 * /login → provider → /login?code=…&state=…. "The upstream provider" is a second OpenID provider configured in
 * SSO_PROVIDERS (in tests a second provider on another loopback host name than the IAM's: 127.0.0.1 beside the server
 * tests' localhost, 127.0.0.2 beside the browser walk's 127.0.0.1 — e2e/sso-upstream.ts) with an account whose e-mail is
 * verified there.
 */
import type { MachineQa } from './testing/qa';

export const ssoCallbackQa: MachineQa = {
  machine: 'ssoCallback',
  scenarios: {
    '/login without parameters (start authorization)':
      'Sign out, then on a sign-in error screen (e.g. after /login?error=access_denied) the page starts a new sign-in: the browser goes to the provider.',
    '/admin/login without parameters (admin client)': 'Sign out, then the same from /admin/login?error=access_denied: a new admin sign-in starts.',
    '/login?code&state (state matches)': 'Sign out, open / and sign in with the e-mail and password of an active user: the provider sends the browser back to /login?code=…&state=….',
    '/login?code&state (state mismatch)': 'Sign in as above, but change the state in the address of /login?code=…&state=… before it loads (or open it in a tab whose sign-in started with another state).',
    '/login?code&state (no stored verifier)': 'Sign in as above, but open the /login?code=…&state=… address in a fresh browser profile (nothing stored for this sign-in).',
    '/admin/login?code&state (admin client, state matches)': 'Sign out, open /admin and sign in with the e-mail and password of an admin: the provider sends the browser back to /admin/login?code=….',
    '/login?code&state after /login?origin=/profile': 'Sign out, open /login?origin=/profile and sign in with the e-mail and password of an active user.',
    '/login?origin=/profile&error=access_denied (retry keeps the origin)': 'Sign out and open /login?origin=/profile&error=access_denied (the provider refused a sign-in that wanted /profile).',
    '/login?error=access_denied': 'Sign out and open /login?error=access_denied (what the provider answers when a sign-in is refused).',
    '/login?type=sso&provider&interaction (upstream provider)':
      'Sign out, open /login, switch the language to Deutsch and press "Continue with <provider>" (or open /login?type=sso&provider=<id>&interaction=… from a service app).',
    '/login?interaction&error=sso_failed (upstream provider failed)': 'Stop the upstream provider (or make its token endpoint fail), then press "Continue with <provider>" and sign in there.',
    '/login?interaction&error=sso_account_not_found (no SSO account here)':
      'Press "Continue with <provider>" and sign in at the upstream provider as a person who has no SSO account here (or only a password account).',
    '/login?error=sso_account_not_found (interaction gone)': 'Open /login?error=sso_account_not_found without an interaction (the sign-in request is gone).',
    '/login?interaction&error=sso_email_unverified (the upstream did not vouch for the address)':
      'Press "Continue with <provider>" and sign in at an upstream provider that sends no email_verified claim (LemonLDAP::NG by default), for a person who has an SSO account here.',
    '/login?error=interaction_expired (reloaded or reused SSO callback)':
      'Sign in through the upstream provider, then reload the /api/sso/<id>/callback?… address (browser history), or open that address in another browser.',
  },
  steps: {
    start: 'Open the page of the scenario.',
    'createAuthorizationRequest succeeds': 'Wait (or press the button that starts a new sign-in): the browser goes to the sign-in provider.',
    'createAuthorizationRequest fails error': 'In a browser without Web Crypto (devtools: override crypto.subtle to fail), press the button that starts a new sign-in.',
    RETRY: 'Press "Try again" while the page has not yet left for the provider.',
    'exchangeCode succeeds': 'Wait: the page exchanges the code for tokens.',
    'exchangeCode fails invalid_grant': 'Use the code once (open the /login?code=… address, then open it again in the same tab before the page exchanged it, or let it expire for 60 s): the token endpoint answers 400 invalid_grant.',
    BACK_TO_SIGN_IN: 'Press "Back to sign in".',
    START_OVER: 'Press "Sign in again" (admins: "Admin sign in").',
  },
  screens: {
    'screen:sso.signing-in': 'The card says "Signing you in…" with a progress bar, then the browser leaves (to the provider) or the app opens (/, the wanted page, or /admin/dashboard).',
    'screen:sso.error':
      'The card says "Sign-in could not be completed. Please try again." (after the upstream provider failed: "Signing in through your organization\'s provider did not work. Please try again.") with a "Try again" button.',
    'screen:sso.account-not-found':
      '"No account for this sign-in" says "You signed in with <provider name>, but no account here uses it. Trying again will not help: ask an administrator to give you access." with "Back to sign in" and no "Try again".',
    'screen:sso.expired': '"Sign-in link expired" says "This sign-in link has expired or was already used. Please sign in again." with a "Sign in again" button (never a page of JSON).',
  },
};
