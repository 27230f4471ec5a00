import { createToaster } from '@ark-ui/react/toast';

/**
 * The app-wide toast store: `toaster.create({ title, description, type })`. The toasts' components and machines
 * (./toast.tsx) load after the first render (src/routes/__root.tsx); this store alone is what screens import.
 *
 * Toasts sit in the 64 px header band at the top end (full width on phones), never over the page's own controls:
 * at the bottom end they covered whatever button was there (issue 14: "Generate API key" on a technical user's page,
 * the pagination), and below the header they would cover every page's primary action (Add user, Import users).
 * Compact (one line of title and one of description fit in the band); further toasts hide behind the newest one,
 * peeking out by 4 px, and fan out on hover or focus.
 */
export const toaster = createToaster({
  placement: 'top-end',
  offsets: { top: '4px', right: '8px', bottom: '8px', left: '8px' },
  overlap: true,
  gap: 4,
  max: 3,
});
