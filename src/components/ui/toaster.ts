import { createToaster, type ToastOptions } from '@ark-ui/react/toast';
import { toastPlacement } from './toast-lane';

/**
 * The app-wide toast store: `toaster.create({ title, description, type })`. The toasts' components and machines
 * (./toast.tsx) load after the first render (src/routes/__root.tsx); this store alone is what screens import.
 *
 * Placement (./toast-lane.ts): in the header band's free lane between its start and end controls on wide screens, so
 * they cover neither the page's controls (issue 14: "Generate API key", the pagination at the bottom end) nor the
 * header's language picker and account menu (issue 29); in the phone lane under the header, full width, pushing the
 * page down, where that lane is too narrow (phones). Further toasts hide behind the newest one, peeking out by 4 px, and fan out on hover or focus; hovering
 * or focusing them pauses their timers (zag's toast group).
 *
 * How long (issue 29: success toasts lasted 2 s, too short to read): success and information 6 s, errors until
 * dismissed with their close button.
 */
export const TOAST_DURATIONS = { success: 6000, info: 6000, warning: 10_000, error: Number.POSITIVE_INFINITY, loading: Number.POSITIVE_INFINITY } as const;

const common = { overlap: true, gap: 4, max: 3 } as const;

export const headerToaster = createToaster({
  ...common,
  placement: 'top-end',
  offsets: { top: '4px', right: 'var(--toast-lane-end, 8px)', bottom: '8px', left: '8px' },
});

/** The phone lane: a sticky band in the page's flow under the header (PhoneToasts, ./toast.tsx), not a fixed overlay. */
export const phoneToaster = createToaster({ ...common, placement: 'top', offsets: '0px' });

/** How long a toast stays unless the caller says otherwise. */
export function toastDuration(options: Pick<ToastOptions, 'type' | 'duration'>): number {
  if (options.duration !== undefined) return options.duration;
  const type = options.type as keyof typeof TOAST_DURATIONS | undefined;
  return type && type in TOAST_DURATIONS ? TOAST_DURATIONS[type] : TOAST_DURATIONS.info;
}

export const toaster = {
  /** Shows a toast where it covers no control (see above); returns its id. */
  create(options: ToastOptions): string {
    const target = toastPlacement() === 'header' ? headerToaster : phoneToaster;
    return target.create({ ...options, duration: toastDuration(options) });
  },
  dismiss(id?: string): void {
    headerToaster.dismiss(id);
    phoneToaster.dismiss(id);
  },
};
