/**
 * Toasts cover no control (issue 29): the header's free lane between its start controls and its end controls, or the
 * phone lane under the header (in the page's flow) where that lane is too narrow; success toasts last long enough to read, errors stay until
 * dismissed. The layout itself is checked in the browser (e2e/toasts.spec.ts, 1440 and 390 px).
 */
import { describe, expect, it } from 'vitest';
import { computeToastLane, LANE_GAP, MIN_LANE_WIDTH, toastPlacement } from '../../src/components/ui/toast-lane';
import { TOAST_DURATIONS, toastDuration } from '../../src/components/ui/toaster';

describe('computeToastLane', () => {
  it('admin header at 1440 px (sidebar 240 px): the lane ends 8 px before the language picker', () => {
    const lane = computeToastLane({ left: 240, right: 1440 }, [], [{ left: 1180, right: 1416 }], 1440);
    expect(lane).toEqual({ endOffset: 1440 - (1180 - LANE_GAP), width: 1180 - LANE_GAP - (240 + LANE_GAP) });
    expect(toastPlacement(lane)).toBe('header');
  });

  it('user header: the lane starts 8 px after the logo link', () => {
    const lane = computeToastLane({ left: 0, right: 1440 }, [{ left: 32, right: 110 }], [{ left: 1200, right: 1408 }], 1440);
    expect(lane.width).toBe(1200 - LANE_GAP - (110 + LANE_GAP));
  });

  it('a phone (390 px): logo/menu button and the controls leave too little room, toasts go under the header', () => {
    const lane = computeToastLane({ left: 0, right: 390 }, [{ left: 12, right: 52 }], [{ left: 200, right: 378 }], 390);
    expect(lane.width).toBeLessThan(MIN_LANE_WIDTH);
    expect(toastPlacement(lane)).toBe('under-header');
  });

  it('controls overlapping each other give a zero-width lane, never a negative one', () => {
    expect(computeToastLane({ left: 0, right: 300 }, [{ left: 0, right: 200 }], [{ left: 150, right: 300 }], 300).width).toBe(0);
  });

  it('no header on screen (nothing measured): the phone lane', () => {
    expect(toastPlacement(null)).toBe('under-header');
  });
});

describe('toastDuration', () => {
  it('success and information toasts stay at least 5 s; errors until dismissed', () => {
    expect(toastDuration({ type: 'success' })).toBeGreaterThanOrEqual(5000);
    expect(toastDuration({ type: 'info' })).toBeGreaterThanOrEqual(5000);
    expect(toastDuration({})).toBeGreaterThanOrEqual(5000);
    expect(toastDuration({ type: 'error' })).toBe(Number.POSITIVE_INFINITY);
    expect(TOAST_DURATIONS.success).toBe(6000);
  });

  it('a duration the caller gives wins', () => {
    expect(toastDuration({ type: 'success', duration: 10_000 })).toBe(10_000);
  });
});
