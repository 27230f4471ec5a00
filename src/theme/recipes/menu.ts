import { menuAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { floatingPanel } from './floating-panel';
import { focusRing } from './focus-ring';

export const menu = defineSlotRecipe({
  className: 'menu',
  slots: menuAnatomy.keys(),
  base: {
    positioner: { zIndex: 'popover' },
    content: {
      ...floatingPanel,
      minWidth: '44',
      p: '1',
    },
    item: {
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      px: '2.5',
      py: '2',
      borderRadius: 'sm',
      fontSize: 'sm',
      color: 'fg.default',
      cursor: 'pointer',
      textDecoration: 'none',
      _highlighted: { bg: 'bg.subtle' },
      _disabled: { opacity: 0.5, cursor: 'not-allowed' },
    },
    itemGroupLabel: { px: '2.5', py: '1.5', fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted' },
    separator: { my: '1', borderColor: 'border.default' },
    trigger: { cursor: 'pointer', _focusVisible: focusRing },
  },
});
