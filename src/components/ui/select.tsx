import { Portal } from '@ark-ui/react/portal';
import { Select as ArkSelect, createListCollection, type CollectionItem, type SelectValueChangeDetails } from '@ark-ui/react/select';
import type { ReactElement, ReactNode } from 'react';
import { select, type SelectVariantProps } from 'styled-system/recipes';
import { CheckIcon, ChevronDownIcon } from './icons';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(select);

// Re-typed to keep Ark's item generic, which withProvider would erase.
export const Root = withProvider(ArkSelect.Root, 'root') as <T extends CollectionItem>(
  props: ArkSelect.RootProps<T> & SelectVariantProps,
) => ReactElement;
export const Label = withContext(ArkSelect.Label, 'label');
export const Control = withContext(ArkSelect.Control, 'control');
export const Trigger = withContext(ArkSelect.Trigger, 'trigger');
export const ValueText = withContext(ArkSelect.ValueText, 'valueText');
export const Indicator = withContext(ArkSelect.Indicator, 'indicator');
export const Positioner = withContext(ArkSelect.Positioner, 'positioner');
export const Content = withContext(ArkSelect.Content, 'content');
export const Item = withContext(ArkSelect.Item, 'item');
export const ItemText = withContext(ArkSelect.ItemText, 'itemText');
export const ItemIndicator = withContext(ArkSelect.ItemIndicator, 'itemIndicator');
export const ItemGroup = withContext(ArkSelect.ItemGroup, 'itemGroup');
export const ItemGroupLabel = withContext(ArkSelect.ItemGroupLabel, 'itemGroupLabel');
export const HiddenSelect = ArkSelect.HiddenSelect;
export { createListCollection };

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SimpleSelectProps {
  label: ReactNode;
  /** Hide the label visually but keep it for assistive technology. */
  hideLabel?: boolean;
  options: SelectOption[];
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

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

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
  const collection = createListCollection<SelectOption>({
    items: options,
    itemToString: (item) => item.label,
    itemToValue: (item) => item.value,
    isItemDisabled: (item) => Boolean(item.disabled),
  });
  const handleChange = (details: SelectValueChangeDetails<SelectOption>) => {
    const next = details.value[0];
    if (next !== undefined) onValueChange(next);
  };
  const content = (
    <Positioner>
      <Content>
        {collection.items.map((item) => (
          <Item key={item.value} item={item}>
            <ItemText>{item.label}</ItemText>
            <ItemIndicator>
              <CheckIcon width={16} height={16} />
            </ItemIndicator>
          </Item>
        ))}
      </Content>
    </Positioner>
  );
  return (
    <Root
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
      <Label style={hideLabel ? visuallyHidden : undefined}>{label}</Label>
      <Control>
        <Trigger>
          <ValueText placeholder={placeholder} />
          <Indicator>
            <ChevronDownIcon width={16} height={16} />
          </Indicator>
        </Trigger>
      </Control>
      {portalled ? <Portal>{content}</Portal> : content}
      <HiddenSelect />
    </Root>
  );
}
