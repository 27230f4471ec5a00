import { selectAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { floatingPanel } from './floating-panel';
import { focusRing } from './focus-ring';

export const select = defineSlotRecipe({
  className: 'select',
  slots: selectAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5', width: 'full' },
    label: { fontSize: 'sm', fontWeight: 'medium', color: 'fg.default' },
    control: { position: 'relative' },
    trigger: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: '2',
      width: 'full',
      bg: 'bg.surface',
      color: 'fg.default',
      borderWidth: '1px',
      borderColor: 'border.strong',
      borderRadius: 'md',
      cursor: 'pointer',
      textAlign: 'start',
      _focusVisible: focusRing,
      _disabled: { opacity: 0.6, cursor: 'not-allowed' },
      _invalid: { borderColor: 'border.error' },
      _placeholderShown: { color: 'fg.subtle' },
    },
    valueText: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
    indicator: { color: 'fg.muted', display: 'inline-flex', transition: 'transform token(durations.fast)', _open: { transform: 'rotate(180deg)' } },
    positioner: { zIndex: 'popover' },
    content: {
      ...floatingPanel,
      p: '1',
      maxHeight: 'selectMenuMax',
      minHeight: 'selectMenuMin',
      overflowY: 'auto',
    },
    item: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: '2',
      px: '2.5',
      py: '2',
      borderRadius: 'sm',
      fontSize: 'sm',
      cursor: 'pointer',
      _highlighted: { bg: 'bg.subtle' },
      _selected: { fontWeight: 'semibold', color: 'accent.text' },
      _disabled: { opacity: 0.5, cursor: 'not-allowed' },
    },
    itemText: {},
    itemIndicator: { color: 'accent.text', display: 'inline-flex' },
    itemGroup: {},
    itemGroupLabel: { px: '2.5', py: '1.5', fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted' },
  },
  variants: {
    size: {
      sm: { trigger: { height: '8', px: '2.5', fontSize: 'sm' } },
      md: { trigger: { height: '10', px: '3', fontSize: 'sm' } },
    },
  },
  defaultVariants: { size: 'md' },
});
