import { Portal } from '@ark-ui/react/portal';
import type { SelectValueChangeDetails } from '@ark-ui/react/select';
import type { ReactNode } from 'react';
import { visuallyHidden } from '../visually-hidden';
import { ChevronDownIcon } from './icons';
import * as Select from './select';

export interface SimpleSelectProps {
  label: ReactNode;
  /** Hide the label visually but keep it for assistive technology. */
  hideLabel?: boolean;
  options: Select.SelectOption[];
  value: string | undefined;
  onValueChange: (value: string) => void;
  placeholder?: string;
  name?: string;
  size?: 'sm' | 'md';
  disabled?: boolean;
  invalid?: boolean;
  className?: string;
  /** Render the dropdown in a portal (default) or inline. */
  portalled?: boolean;
}

/** Single-value select with a label; menu height is bounded to 140-300 px by the recipe. */
export function SimpleSelect({
  label,
  hideLabel,
  options,
  value,
  onValueChange,
  placeholder,
  name,
  size,
  disabled,
  invalid,
  className,
  portalled = true,
}: SimpleSelectProps) {
  const collection = Select.createListCollection<Select.SelectOption>({
    items: options,
    itemToString: (item) => item.label,
    itemToValue: (item) => item.value,
    isItemDisabled: (item) => Boolean(item.disabled),
  });
  const handleChange = (details: SelectValueChangeDetails<Select.SelectOption>) => {
    const next = details.value[0];
    if (next !== undefined) onValueChange(next);
  };
  const content = <Select.Options items={collection.items} />;
  // a long value may end in an ellipsis in a narrow trigger: the title keeps it readable
  const selected = options.find((option) => option.value === value)?.label;
  return (
    <Select.Root
      collection={collection}
      value={value === undefined ? [] : [value]}
      onValueChange={handleChange}
      name={name}
      size={size}
      disabled={disabled}
      invalid={invalid}
      className={className}
      positioning={{ sameWidth: false, fitViewport: true }}
    >
      <Select.Label className={hideLabel ? visuallyHidden : undefined}>{label}</Select.Label>
      <Select.Control>
        <Select.Trigger>
          <Select.ValueText placeholder={placeholder} title={selected} />
          <Select.Indicator>
            <ChevronDownIcon width={16} height={16} />
          </Select.Indicator>
        </Select.Trigger>
      </Select.Control>
      {portalled ? <Portal>{content}</Portal> : content}
      <Select.HiddenSelect />
    </Select.Root>
  );
}
