import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { activateLocale } from '../../src/lib/i18n';

// jsdom lacks the layout APIs Ark UI's positioning (floating-ui) and scrolling use.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', { value: ResizeObserverStub, writable: true });
}
if (!Element.prototype.scrollTo) {
  Element.prototype.scrollTo = function scrollTo() {};
}
if (!Element.prototype.scrollIntoView) {
  Element.prototype.scrollIntoView = function scrollIntoView() {};
}

// findBy*/waitFor give up after 1 s by default: a server round trip plus a lazy route's first render raced that
// on a loaded machine (admin-user-api-key.test.tsx waited 10 s per call for it); every SPA test waits up to 10 s
configure({ asyncUtilTimeout: 10_000 });

beforeEach(async () => {
  window.localStorage.clear();
  await activateLocale('en');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
