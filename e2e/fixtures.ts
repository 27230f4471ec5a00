/**
 * The guard every browser test runs under (issue 29): every spec imports `test` and `expect` from here, not from
 * @playwright/test. A test fails, after it ran, when any page of any of its browser contexts
 *  - threw an uncaught error (`pageerror`),
 *  - logged a console error (a failed request's "Failed to load resource … 4xx" is the browser's own line about an
 *    answer the product shows, not an error of the page: it is let through; a 5xx is not),
 *  - logged Lingui's "Uncompiled message" or "Messages for locale … not loaded" warning,
 *  - showed the error boundary (the product's error page, `[data-error-boundary]`) or "Unexpected Application Error",
 *  - showed text that looks like a Lingui message id ("8v0rIp", "zRN22x": a text of 6 base64 characters with a
 *    digit or a lower-then-upper case letter pair), at any moment: a script in every page watches what is added to
 *    the document, so a raw id shown for an instant (a locale switched before its catalog) is caught too.
 * A test that provokes one of these on purpose says so with `guard.allow…`, which names what is expected.
 *
 * Contexts made by `browser.newContext()` / `browser.newPage()` (inside a test or in a beforeAll) are watched as
 * well as the `context` and `page` fixtures; what they report goes to the test running at that moment.
 */
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

export { expect };

export interface GuardProblem {
  kind: 'pageerror' | 'console' | 'warning' | 'boundary' | 'message-id';
  text: string;
  url: string;
}

export interface Guard {
  /** Console errors the test provokes on purpose (e.g. a mocked 500). */
  allowConsole(pattern: RegExp): void;
  /** Uncaught errors the test provokes on purpose. */
  allowPageError(pattern: RegExp): void;
  /** The error page is what this test checks. */
  allowErrorBoundary(): void;
  /** Texts on screen that look like message ids but are data (a seeded name, a code). */
  allowText(pattern: RegExp): void;
  /** What was seen so far (the journeys check it after each step). */
  problems(): GuardProblem[];
  /** Fails now when something was seen: a journey calls it after each screen, so the failure names the step. */
  check(step?: string): void;
}

/** A text of 6 base64 characters with a digit, a + or /, or a lower case letter followed by an upper case one. */
export const MESSAGE_ID = /^[A-Za-z0-9+/]{6}$/;
export function looksLikeMessageId(text: string): boolean {
  return MESSAGE_ID.test(text) && /[A-Za-z]/.test(text) && (/[0-9+/]/.test(text) || /[a-z][A-Z]/.test(text));
}

/** Runs in every page before its scripts: reports raw message ids and the error boundary as soon as they show. */
function pageWatcher(): void {
  const w = window as unknown as { __iamGuardReport?: (kind: string, text: string) => void; __iamGuardInstalled?: boolean };
  if (w.__iamGuardInstalled) return;
  w.__iamGuardInstalled = true;
  const ID = /^[A-Za-z0-9+/]{6}$/;
  const isId = (text: string) => ID.test(text) && /[A-Za-z]/.test(text) && (/[0-9+/]/.test(text) || /[a-z][A-Z]/.test(text));
  const seen = new Set<string>();
  const report = (kind: string, text: string) => {
    const key = `${kind}:${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    w.__iamGuardReport?.(kind, text);
  };
  const skip = (el: Element | null) => !!el && !!el.closest('script, style, noscript, template, [data-guard-ignore]');
  const scanText = (node: Node) => {
    const text = (node.nodeValue ?? '').trim();
    if (text.length === 6 && isId(text) && !skip(node.parentElement)) report('message-id', text);
    else if (/Unexpected Application Error/.test(text)) report('boundary', text);
  };
  const scanElement = (el: Element) => {
    if (skip(el)) return;
    if (el.matches('[data-error-boundary]') || el.querySelector('[data-error-boundary]')) report('boundary', (el.textContent ?? '').trim().slice(0, 200));
    for (const attr of ['aria-label', 'placeholder', 'title']) {
      const value = el.getAttribute(attr)?.trim();
      if (value && isId(value)) report('message-id', `${attr}="${value}"`);
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) scanText(node);
      else {
        const child = node as Element;
        for (const attr of ['aria-label', 'placeholder', 'title']) {
          const value = child.getAttribute(attr)?.trim();
          if (value && isId(value) && !skip(child)) report('message-id', `${attr}="${value}"`);
        }
      }
    }
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') scanText(record.target);
      else if (record.type === 'attributes' && record.target instanceof Element) scanElement(record.target);
      else
        for (const node of record.addedNodes) {
          if (node.nodeType === Node.TEXT_NODE) scanText(node);
          else if (node instanceof Element) scanElement(node);
        }
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-label', 'placeholder', 'title', 'data-error-boundary'] });
}

interface Collector {
  problems: GuardProblem[];
  console: RegExp[];
  pageErrors: RegExp[];
  texts: RegExp[];
  boundary: boolean;
}

let current: Collector | undefined;
const watched = new WeakSet<BrowserContext>();

function record(problem: GuardProblem): void {
  const c = current;
  if (!c) return;
  if (problem.kind === 'console' && c.console.some((p) => p.test(problem.text))) return;
  if (problem.kind === 'pageerror' && c.pageErrors.some((p) => p.test(problem.text))) return;
  if (problem.kind === 'message-id' && c.texts.some((p) => p.test(problem.text))) return;
  if (problem.kind === 'boundary' && c.boundary) return;
  c.problems.push(problem);
}

/** The browser's line for a request answered 4xx: an answer the product handles (wrong password, expired link). */
const CLIENT_ERROR_RESOURCE = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

/**
 * The browser's line for a request a spec cut off itself (`route.abort()`: 'failed', 'internetdisconnected'), as the
 * statechart walks do to reach their network-failure states; the e2e server is on loopback, so nothing else cuts one.
 */
const ABORTED_BY_SPEC_RESOURCE = /^Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED)$/;

function watchPage(page: Page): void {
  page.on('pageerror', (error) => record({ kind: 'pageerror', text: `${error.name}: ${error.message}`, url: page.url() }));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error') {
      if (CLIENT_ERROR_RESOURCE.test(text) || ABORTED_BY_SPEC_RESOURCE.test(text)) return;
      record({ kind: 'console', text, url: page.url() });
    } else if (/Uncompiled message detected|Messages for locale .* not loaded/.test(text)) {
      record({ kind: 'warning', text, url: page.url() });
    }
  });
}

export async function watchContext(context: BrowserContext): Promise<void> {
  if (watched.has(context)) return;
  watched.add(context);
  await context.exposeBinding('__iamGuardReport', ({ page }, kind: string, text: string) => {
    record({ kind: kind === 'boundary' ? 'boundary' : 'message-id', text, url: page?.url() ?? '' });
  });
  await context.addInitScript(pageWatcher);
  for (const page of context.pages()) watchPage(page);
  context.on('page', watchPage);
}

function describeProblems(problems: readonly GuardProblem[]): string {
  return problems.map((p) => `${p.kind}: ${p.text} (at ${p.url})`).join('\n');
}

function makeGuard(collector: Collector): Guard {
  return {
    allowConsole: (pattern) => void collector.console.push(pattern),
    allowPageError: (pattern) => void collector.pageErrors.push(pattern),
    allowErrorBoundary: () => void (collector.boundary = true),
    allowText: (pattern) => void collector.texts.push(pattern),
    problems: () => [...collector.problems],
    check: (step) => {
      expect(collector.problems, `${step ? `${step}: ` : ''}the page showed or logged:\n${describeProblems(collector.problems)}`).toEqual([]);
    },
  };
}

/** Makes every context this browser creates watched (newPage goes through newContext). */
function patchBrowser(browser: Browser): void {
  const b = browser as Browser & { __iamGuardPatched?: boolean };
  if (b.__iamGuardPatched) return;
  b.__iamGuardPatched = true;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    await watchContext(context);
    return context;
  };
}

export const test = base.extend<{ guard: Guard }, { guardBrowser: void }>({
  guardBrowser: [
    async ({ browser }, provide) => {
      patchBrowser(browser);
      await provide();
    },
    { scope: 'worker', auto: true },
  ],
  context: async ({ context }, provide) => {
    await watchContext(context);
    await provide(context);
  },
  guard: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide, testInfo) => {
      const collector: Collector = { problems: [], console: [], pageErrors: [], texts: [], boundary: false };
      current = collector;
      const guard = makeGuard(collector);
      try {
        await provide(guard);
      } finally {
        current = undefined;
      }
      // a test that failed already keeps its own failure; the guard's findings go with it as an attachment
      if (collector.problems.length > 0) {
        await testInfo.attach('guard', { body: describeProblems(collector.problems), contentType: 'text/plain' });
        if (testInfo.status === testInfo.expectedStatus) guard.check();
      }
    },
    { auto: true },
  ],
});
