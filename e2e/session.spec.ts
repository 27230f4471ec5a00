/**
 * The session's browser walk (issue 13): refresh, refresh failure, logout, cross-tab both ways, the reset-link
 * rule, and the account's language at sign-in (issue 14). Each case is a path of the session machine, walked with
 * the session driver (e2e/paths/session.driver.ts) exactly as the generated suite does: run the step, then check
 * every screen tag of the state reached (machines/session.qa.ts words), and that the visible `screen:session.*`
 * elements are exactly the state's.
 */
import { expect, test } from './fixtures';
import { getInitialSnapshot, getNextSnapshot, type EventObject } from 'xstate';
import { sessionMachine, type SessionEvent } from '../machines/session.machine';
import { adminTokens, italianUserTokens, otherTabTokens, refreshedTokens, sessionInput, userTokens } from '../machines/session.model';
import { doneEvent, errorEvent, stateKey } from '../machines/testing/graph';
import { screenTags, type QaCase, type QaStep } from '../machines/testing/qa';
import type { DriverContext } from './paths/driver';
import { sessionDriver } from './paths/session.driver';

test.describe.configure({ mode: 'serial' });

const fail401 = { kind: 'http', status: 401, code: 'invalid_token' };
const ev = {
  user: { type: 'TOKENS_RECEIVED', tokens: userTokens, qaVariant: 'user' } as SessionEvent,
  admin: { type: 'TOKENS_RECEIVED', tokens: adminTokens, qaVariant: 'admin' } as SessionEvent,
  italian: { type: 'TOKENS_RECEIVED', tokens: italianUserTokens, qaVariant: 'user with locale it' } as SessionEvent,
  unauthorized: (token: string) => ({ type: 'REQUEST_UNAUTHORIZED', accessToken: token }) as SessionEvent,
  logout: { type: 'LOGOUT' } as SessionEvent,
  removed: { type: 'STORAGE_CHANGED', key: 'token', newValue: null, qaVariant: 'tokens removed' } as SessionEvent,
  added: { type: 'STORAGE_CHANGED', key: 'token', newValue: JSON.stringify(otherTabTokens), qaVariant: 'tokens added' } as SessionEvent,
  link: { type: 'PUBLIC_LINK_OPENED' } as SessionEvent,
};

/** A case from steps given as [key, events]: states and screen tags come from the real machine. */
function caseOf(id: string, steps: Array<[string, EventObject[]]>): QaCase {
  let snapshot = getInitialSnapshot(sessionMachine, sessionInput);
  const out: QaStep[] = [{ key: 'start', events: [{ type: 'xstate.init' }], state: stateKey(snapshot.value), screens: screenTags(snapshot) }];
  for (const [key, events] of steps) {
    for (const event of events) snapshot = getNextSnapshot(sessionMachine, snapshot, event as SessionEvent);
    out.push({ key, events, state: stateKey(snapshot.value), screens: screenTags(snapshot) });
  }
  return { id, machine: 'session', scenario: 'signed out at start', input: sessionInput, steps: out };
}

const cases: QaCase[] = [
  caseOf('session-refresh', [
    ['TOKENS_RECEIVED user', [ev.user]],
    ['refreshTokens succeeds', [ev.unauthorized('at-user'), doneEvent('refreshTokens', refreshedTokens)]],
  ]),
  caseOf('session-refresh-failure', [
    ['TOKENS_RECEIVED user', [ev.user]],
    ['refreshTokens fails invalid_grant', [ev.unauthorized('at-user'), errorEvent('refreshTokens', { kind: 'http', status: 400, code: 'invalid_grant' })]],
    ['revokeTokens fails invalid_token', [errorEvent('revokeTokens', fail401)]],
  ]),
  caseOf('session-logout', [
    ['TOKENS_RECEIVED admin', [ev.admin]],
    ['LOGOUT', [ev.logout]],
    ['revokeTokens succeeds', [doneEvent('revokeTokens', undefined)]],
  ]),
  caseOf('session-logout-here-other-tab-signed-out', [
    ['TOKENS_RECEIVED admin', [ev.admin]],
    ['revokeElsewhere fails invalid_token', [ev.removed, errorEvent('revokeElsewhere', fail401)]],
  ]),
  caseOf('session-token-removed-elsewhere', [
    ['TOKENS_RECEIVED user', [ev.user]],
    ['STORAGE_CHANGED tokens removed', [ev.removed]],
    ['revokeElsewhere succeeds', [doneEvent('revokeElsewhere', undefined)]],
    ['STORAGE_CHANGED tokens added', [ev.added]],
  ]),
  caseOf('session-reset-link', [
    ['TOKENS_RECEIVED user', [ev.user]],
    ['revokeForLink succeeds', [ev.link, doneEvent('revokeForLink', undefined)]],
  ]),
  caseOf('session-account-language', [['TOKENS_RECEIVED user with locale it', [ev.italian]]]),
];

for (const testCase of cases) {
  test(`${testCase.id}: ${testCase.steps.map((s) => s.state).join(' → ')}`, async ({ page, context, request }) => {
    const ctx: DriverContext = { page, context, request, world: {}, testCase, events: [], lang: 'en' };
    try {
      for (const step of testCase.steps) {
        ctx.step = step.key === 'start' ? undefined : step;
        ctx.events = step.events;
        const run = step.key === 'start' ? sessionDriver.start[testCase.scenario] : sessionDriver.steps[step.key];
        if (!run) throw new Error(`no driver for ${step.key}`);
        await run(ctx);
        for (const tag of step.screens) {
          const check = sessionDriver.screens[tag];
          if (!check) throw new Error(`no screen check for ${tag}`);
          await check(ctx);
        }
        // exactly the state's session screens are visible
        const visible = await page.locator('[data-screen^="screen:session."]:visible').evaluateAll((els) => els.map((el) => el.getAttribute('data-screen')));
        if (!step.screens.includes('screen:session.signing-out')) expect(visible.sort()).toEqual([...step.screens].sort());
      }
    } finally {
      await sessionDriver.finish?.(ctx);
    }
  });
}
