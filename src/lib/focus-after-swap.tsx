/**
 * Where keyboard and screen-reader focus goes when the page changes under it (issue 29, WCAG 2.4.3 / 4.1.3).
 *
 * One mechanism for two kinds of change:
 * - a route change (`RouteAnnouncer` in the root route): focus moves to the new page's h1 and its title is announced;
 * - an in-place swap (the sign-in's password → two-factor step, the import dialog's check results, the two-factor
 *   set-up's steps…): `useSwapFocus(key, …)` in the component that swaps, which moves focus to the new content's
 *   target and announces it in a live region that lives next to it (so it is heard inside a modal dialog too).
 *
 * The target is the first `[data-swap-focus]` in the container, else its first h1 (or the given selector's match) (made focusable with
 * `tabindex=-1`). It is waited for while the new content loads (lazy screens, data), and given up when the person
 * has moved on meanwhile (clicked or typed elsewhere) or after a few seconds.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { visuallyHidden } from '../components/visually-hidden';

/** Marks the element that takes focus after a swap. */
export const SWAP_FOCUS_ATTRIBUTE = 'data-swap-focus';
export const swapFocusTarget = { [SWAP_FOCUS_ATTRIBUTE]: '' } as const;

const MARKED = `[${SWAP_FOCUS_ATTRIBUTE}]`;
/** How long the new content may take to appear (a lazy screen, the data of a page). */
export const FOCUS_WAIT_MS = 5000;

export interface FocusRequest {
  /** Where to look (default: the document's main landmark, else the body). */
  container?: () => Element | null;
  /** What to take when nothing in the container is marked `data-swap-focus` (default: its h1). */
  selector?: string;
  /** Whether a `data-swap-focus` mark comes first (in-place swaps: yes; a new page: its h1 only). Default true. */
  marked?: boolean;
  timeoutMs?: number;
  /** Called with the element once it has focus. */
  onFocused?: (element: HTMLElement) => void;
}

function mainLandmark(): Element | null {
  return document.querySelector('main') ?? document.body;
}

/**
 * Whether the element is rendered: React keeps the screen a Suspense fallback replaces in the DOM, hidden with an
 * inline `display: none` (the sign-in's credentials while the two-factor screen loads): never take its heading.
 */
function shown(element: HTMLElement): boolean {
  if (typeof element.checkVisibility === 'function') return element.checkVisibility();
  for (let node: HTMLElement | null = element; node; node = node.parentElement) if (node.style.display === 'none') return false;
  return true;
}

function findTarget(request: FocusRequest): HTMLElement | null {
  const root = (request.container ?? mainLandmark)();
  if (!root) return null;
  const selectors = request.marked === false ? [request.selector ?? 'h1'] : [MARKED, request.selector ?? 'h1'];
  for (const selector of selectors) {
    for (const candidate of Array.from(root.querySelectorAll<HTMLElement>(selector))) {
      // not in hidden content, nor in a loading placeholder (aria-busy) that the real content is about to replace
      if (candidate.closest('[hidden], [aria-hidden="true"], [inert], [aria-busy="true"]')) continue;
      if (!shown(candidate)) continue;
      return candidate;
    }
  }
  return null;
}

function focusElement(element: HTMLElement): boolean {
  const focusable = element.matches('a[href], button, input, select, textarea, [tabindex]');
  if (!focusable) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: false });
  return document.activeElement === element;
}

/**
 * Focuses the request's target as soon as it is in the DOM. Answers a cancel function. Gives up when the person
 * clicks or presses a key meanwhile (they have moved on), or after `timeoutMs`.
 */
export function focusWhenReady(request: FocusRequest): () => void {
  if (typeof document === 'undefined') return () => undefined;
  let done = false;
  let observer: MutationObserver | null = null;
  const wait: { timer?: ReturnType<typeof setTimeout> } = {};
  const finish = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    if (wait.timer !== undefined) clearTimeout(wait.timer);
    document.removeEventListener('pointerdown', finish, true);
    document.removeEventListener('keydown', finish, true);
  };
  const attempt = (): boolean => {
    const target = findTarget(request);
    if (!target) return false;
    finish();
    if (focusElement(target)) request.onFocused?.(target);
    return true;
  };
  if (attempt()) return finish;
  observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(() => void attempt());
  observer?.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden', 'aria-hidden', 'inert', 'aria-busy'] });
  wait.timer = setTimeout(finish, request.timeoutMs ?? FOCUS_WAIT_MS);
  // a person who acts before the content is there keeps their own place
  document.addEventListener('pointerdown', finish, true);
  document.addEventListener('keydown', finish, true);
  return finish;
}

/**
 * A polite live region's text: set after the region is in the DOM, and cleared then set again for a repeated
 * message, so screen readers announce each change.
 */
export function useAnnouncement(): { message: string; announce: (text: string) => void } {
  const [state, setState] = useState({ message: '', serial: 0 });
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  return {
    message: state.message,
    announce: (text: string) => {
      clearTimeout(pending.current);
      setState((previous) => ({ message: '', serial: previous.serial + 1 }));
      pending.current = setTimeout(() => setState((previous) => ({ ...previous, message: text })), 50);
    },
  };
}

/** The always-present polite live region an announcement is spoken from. */
export function LiveRegion({ message, testId }: { message: string; testId?: string }) {
  return (
    // aria-live without role=status: a page's own status messages stay the only "status" a query by role finds
    <div aria-live="polite" aria-atomic="true" className={visuallyHidden} data-testid={testId ?? 'live-region'}>
      {message}
    </div>
  );
}

export interface SwapFocusOptions {
  /** What to say once the new content is there (default: the focused target's text). */
  announce?: string | null;
  /** Where the new content is (default: the main landmark). */
  container?: RefObject<Element | null>;
  selector?: string;
  /** Whether this key takes focus (e.g. not a busy step that has nothing to act on). Default: every change. */
  focus?: boolean;
  /**
   * For a component its parent remounts (a `key` that follows server data, such as the profile's two-factor section
   * after its own change is saved): when the old instance held focus as it went, the new one (the same id) puts it on
   * its target again instead of leaving it on the page's body. Needs `container`.
   */
  remountId?: string;
}

/** Focus handed from a component that went to the one of the same id that replaces it (id → when). */
const remountHandoffs = new Map<string, number>();
/** The new instance mounts in the same commit; a handoff older than this is a component that just went away. */
const REMOUNT_HANDOFF_MS = 1000;

/**
 * For a component that swaps its content in place: each time `key` changes (not on the first render), focus moves
 * to the new content's target and it is announced. Render the returned `liveRegion` inside the swapping
 * component (it must stay mounted across swaps).
 */
export function useSwapFocus(key: string, options: SwapFocusOptions = {}): { liveRegion: ReactNode } {
  const { message, announce } = useAnnouncement();
  const previousKey = useRef(key);
  const latest = useRef(options);
  latest.current = options;
  const announceRef = useRef(announce);
  announceRef.current = announce;
  useEffect(() => {
    if (previousKey.current === key) return;
    previousKey.current = key;
    const { container, selector, focus = true, announce: text } = latest.current;
    if (!focus) {
      if (text) announceRef.current(text);
      return;
    }
    return focusWhenReady({
      container: container ? () => container.current : undefined,
      selector,
      onFocused: (element) => announceRef.current(text ?? element.textContent?.trim() ?? ''),
    });
  }, [key]);

  const { remountId } = options;
  // a layout effect's cleanup runs before React takes the old DOM out: focus is still inside then
  useLayoutEffect(() => {
    if (!remountId) return;
    const mounted = latest.current.container?.current ?? null;
    return () => {
      const root = latest.current.container?.current ?? mounted;
      if (root && document.activeElement && root !== document.activeElement && root.contains(document.activeElement)) remountHandoffs.set(remountId, Date.now());
    };
  }, [remountId]);
  useEffect(() => {
    if (!remountId) return;
    const handedAt = remountHandoffs.get(remountId);
    remountHandoffs.delete(remountId);
    if (handedAt === undefined || Date.now() - handedAt > REMOUNT_HANDOFF_MS) return;
    // the old content took focus with it: only then (a person who has moved on keeps their place)
    if (document.activeElement && document.activeElement !== document.body) return;
    const { container, selector } = latest.current;
    return focusWhenReady({ container: container ? () => container.current : undefined, selector });
  }, [remountId]);
  return { liveRegion: <LiveRegion message={message} testId="swap-announcer" /> };
}
