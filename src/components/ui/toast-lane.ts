import { useLayoutEffect, useSyncExternalStore, type RefObject } from 'react';

/**
 * Where toasts go, so that they cover no control at any width (WCAG 2.4.11, focus not obscured; issue 29: they used
 * to sit over the header's language picker and account menu).
 *
 * Wide screens: the free lane of the 64 px header band, between its start controls (the logo link, the navigation
 * button) and its end controls (language, account menu), marked `data-toast-avoid="start"` / `"end"` in the header.
 * The header measures that lane (useToastLane) and publishes it as CSS variables the toast group and toasts use.
 * When the lane is narrower than MIN_LANE_WIDTH (phones, the admin console beside its sidebar on a small tablet),
 * toasts go to the phone lane right under the header instead (`PhoneToasts` in ./toast.tsx): a sticky band in the
 * page's flow that grows to the toast's height and pushes the page down, so it covers neither the header's controls
 * (issue 29) nor the page's (issue 14: "Generate API key" at the bottom of the screen, which a bottom toast covered).
 */

/** Narrowest header lane a toast goes into (a title and a short description on two lines each). */
export const MIN_LANE_WIDTH = 288;
/** Space kept between a toast and the controls beside it. */
export const LANE_GAP = 8;

export interface LaneBox {
  left: number;
  right: number;
}

export interface ToastLane {
  /** distance from the viewport's right edge to the lane's end */
  endOffset: number;
  /** usable width of the lane */
  width: number;
}

/** The header's free lane between its start controls and its end controls. */
export function computeToastLane(header: LaneBox, start: readonly LaneBox[], end: readonly LaneBox[], viewportWidth: number): ToastLane {
  const laneStart = Math.max(header.left, ...start.map((box) => box.right)) + LANE_GAP;
  const laneEnd = Math.min(header.right, ...end.map((box) => box.left)) - LANE_GAP;
  return { endOffset: Math.max(0, viewportWidth - laneEnd), width: Math.max(0, laneEnd - laneStart) };
}

let currentLane: ToastLane | null = null;

/** Where the next toast goes: in the header band when its lane is wide enough, else in the phone lane under the header. */
export function toastPlacement(lane: ToastLane | null = currentLane): 'header' | 'under-header' {
  return lane && lane.width >= MIN_LANE_WIDTH ? 'header' : 'under-header';
}

function publish(lane: ToastLane | null): void {
  currentLane = lane;
  const style = document.documentElement.style;
  if (lane) {
    style.setProperty('--toast-lane-end', `${lane.endOffset}px`);
    style.setProperty('--toast-lane-width', `${lane.width}px`);
  } else {
    style.removeProperty('--toast-lane-end');
    style.removeProperty('--toast-lane-width');
  }
}

function box(element: Element): LaneBox {
  const rect = element.getBoundingClientRect();
  return { left: rect.left, right: rect.right };
}

/** Measures the header's toast lane while the header is mounted, again on every resize of it or of its controls. */
export function useToastLane(headerRef: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const header = headerRef.current;
    if (!header) return;
    const measure = () => {
      // hidden controls (display: none at this width) take no room
      const visible = (selector: string) => [...header.querySelectorAll(selector)].filter((element) => element.getClientRects().length > 0).map(box);
      publish(computeToastLane(box(header), visible('[data-toast-avoid="start"]'), visible('[data-toast-avoid="end"]'), document.documentElement.clientWidth));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return () => publish(null);
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    for (const element of header.querySelectorAll('[data-toast-avoid]')) observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      publish(null);
    };
  }, [headerRef]);
}

/**
 * Where the phone lane goes: the layout's element right under its header (sticky there), registered with
 * `ref={setPhoneToastSlot}`; PhoneToasts (./toast.tsx) renders into it through a portal. No layout on screen: null, and
 * the lane is a plain overlay at the top of the screen.
 */
let phoneSlot: HTMLElement | null = null;
const slotListeners = new Set<() => void>();

export function setPhoneToastSlot(element: HTMLElement | null): void {
  if (phoneSlot === element) return;
  phoneSlot = element;
  for (const listener of slotListeners) listener();
}

export function usePhoneToastSlot(): HTMLElement | null {
  return useSyncExternalStore(
    (listener) => {
      slotListeners.add(listener);
      return () => slotListeners.delete(listener);
    },
    () => phoneSlot,
    () => null,
  );
}
