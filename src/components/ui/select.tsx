import { Select as ArkSelect, createListCollection, type CollectionItem } from '@ark-ui/react/select';
import type { ReactElement } from 'react';
import { css } from 'styled-system/css';
import { select, type SelectVariantProps } from 'styled-system/recipes';
import { CheckIcon } from './icons';
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
export const HiddenSelect = ArkSelect.HiddenSelect;
export { createListCollection };

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
  /** The language the label is in, when not the page's (a language's own name: "Deutsch"). */
  lang?: string;
}

/** The open list of a select: one item per option, a check beside the selected ones. */
export function Options({ items }: { items: readonly SelectOption[] }): ReactElement {
  return (
    <Positioner>
      <Content>
        {items.map((item) => (
          <Item key={item.value} item={item} lang={item.lang}>
            <ItemText>{item.label}</ItemText>
            <ItemIndicator>
              <CheckIcon width={16} height={16} />
            </ItemIndicator>
          </Item>
        ))}
      </Content>
    </Positioner>
  );
}

/** For selects rendered inline (inside dialogs): the open menu stacks above later fields. */
export const raiseWhenOpen = css({ position: 'relative', '&:has([data-part=content][data-state=open])': { zIndex: 5 } });
