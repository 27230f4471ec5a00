import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { visuallyHidden } from '../visually-hidden';
import { ChevronDownIcon } from './icons';
import * as Select from './select';

export interface MultiSelectProps {
  label: ReactNode;
  options: Select.SelectOption[];
  value: string[];
  onValueChange: (value: string[]) => void;
  placeholder?: string;
  hideLabel?: boolean;
  disabled?: boolean;
  summary?: (count: number) => string;
}

/** Several values from a list (Ark Select, multiple). */
export function MultiSelect({ label, options, value, onValueChange, placeholder, hideLabel, disabled, summary }: MultiSelectProps) {
  const collection = Select.createListCollection<Select.SelectOption>({ items: options, itemToString: (i) => i.label, itemToValue: (i) => i.value });
  const names = options.filter((o) => value.includes(o.value)).map((o) => o.label);
  return (
    <Select.Root
      collection={collection}
      multiple
      value={value}
      onValueChange={(d) => onValueChange(d.value)}
      disabled={disabled}
      positioning={{ sameWidth: true, fitViewport: true }}
      closeOnSelect={false}
      className={Select.raiseWhenOpen}
    >
      <Select.Label className={hideLabel ? visuallyHidden : undefined}>{label}</Select.Label>
      <Select.Control>
        <Select.Trigger>
          <span className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: names.length ? 'fg.default' : 'fg.subtle' })}>
            {names.length ? (summary && names.length > 2 ? summary(names.length) : names.join(', ')) : placeholder}
          </span>
          <Select.Indicator>
            <ChevronDownIcon width={16} height={16} />
          </Select.Indicator>
        </Select.Trigger>
      </Select.Control>
      <Select.Options items={collection.items} />
      <Select.HiddenSelect />
    </Select.Root>
  );
}
