import type { ReactNode } from 'react';
import { select } from 'styled-system/recipes';
import { ChevronDownIcon } from './icons';

/**
 * A closed select's control while its machinery loads (the language picker's, simple-select-lazy.tsx's): the trigger's
 * look with a text and the chevron, not operable.
 */
export function SelectTriggerPlaceholder({ size, text, placeholderShown = false }: { size?: 'sm' | 'md'; text: ReactNode; placeholderShown?: boolean }) {
  const classes = select({ size });
  return (
    <div className={classes.control}>
      <div className={classes.trigger} data-placeholder-shown={placeholderShown ? '' : undefined}>
        <span className={classes.valueText}>{text}</span>
        <span className={classes.indicator}>
          <ChevronDownIcon width={16} height={16} />
        </span>
      </div>
    </div>
  );
}
