import { cx } from 'styled-system/css';
import { select } from 'styled-system/recipes';
import { visuallyHidden } from '../visually-hidden';
import { lazyWithPlaceholder } from './lazy-with-placeholder';
import type { SimpleSelectProps } from './simple-select';
import { SelectTriggerPlaceholder } from './select-trigger-placeholder';

/**
 * SimpleSelect, loaded when first shown: its machinery (Ark UI / zag select, the list collection, floating-ui
 * positioning, the dismissable layer and portal: ~20 KB brotli) is not part of the first load of a page that shows a
 * select among its filters (the dashboard's error-code filter; its pagination, page-size select included, is loaded
 * the same way: data-pagination-lazy.tsx; the user and admin lists, whose filters are selects, import both directly). Until
 * it arrives, a few milliseconds after the page renders, the same label and a same-sized copy of the trigger show the
 * current value, not yet operable; then the real select (keyboard, screen-reader semantics: Ark's) takes its place.
 * Same props as SimpleSelect.
 */
export const SimpleSelect = lazyWithPlaceholder<SimpleSelectProps>(() => import('./simple-select').then((m) => m.SimpleSelect), SelectPlaceholder);

/** The select's look while it loads: label, trigger with the selected option's label (or the placeholder). */
export function SelectPlaceholder({ label, hideLabel, options, value, placeholder, size, className }: SimpleSelectProps) {
  const classes = select({ size });
  const selected = options.find((option) => option.value === value)?.label;
  return (
    <div className={cx(classes.root, className)} aria-busy="true" data-testid="select-placeholder">
      <span className={cx(classes.label, hideLabel ? visuallyHidden : undefined)}>{label}</span>
      <SelectTriggerPlaceholder size={size} text={selected ?? placeholder} placeholderShown={selected === undefined} />
    </div>
  );
}
