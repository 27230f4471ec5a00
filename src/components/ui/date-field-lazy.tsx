import { useLingui } from '@lingui/react/macro';
import type { DateFieldProps } from './date-field';
import { lazyWithPlaceholder } from './lazy-with-placeholder';
import { TextField } from './text-field';

/**
 * The date field, loaded when first shown: its calendar (Ark UI / zag date picker and @internationalized/date) is
 * ~21 KB brotli, and the dashboard, the admin's landing page, would otherwise carry it in its first load. Until it
 * arrives (a few milliseconds after the page renders) the same label shows a read-only field with the date in the
 * reader's format.
 */
export const DateField = lazyWithPlaceholder<DateFieldProps>(() => import('./date-field').then((m) => m.DateField), Pending);

function Pending({ label, value }: DateFieldProps) {
  const { i18n } = useLingui();
  const shown = value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Intl.DateTimeFormat(i18n.locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`)) : '';
  return <TextField label={label} size="sm" value={shown} readOnly aria-busy />;
}
