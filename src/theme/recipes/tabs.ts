import { tabsAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { focusRing } from './focus-ring';

export const tabs = defineSlotRecipe({
  className: 'tabs',
  slots: tabsAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '4', width: 'full' },
    list: {
      display: 'flex',
      gap: '1',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      position: 'relative',
      // every tab in sight (issue 29: at 1440 px the Connect dialog's strip scrolled and hid its last tabs): the list
      // wraps to a second line rather than scrolling
      flexWrap: 'wrap',
      rowGap: '0',
    },
    trigger: {
      px: '3',
      py: '2',
      fontSize: 'sm',
      fontWeight: 'medium',
      color: 'fg.muted',
      cursor: 'pointer',
      whiteSpace: 'nowrap',
      borderBottomWidth: '2px',
      borderColor: 'transparent',
      mb: '-1px',
      _hover: { color: 'fg.default' },
      _selected: { color: 'accent.text', borderColor: 'accent.default' },
      _focusVisible: focusRing,
      _disabled: { opacity: 0.5, cursor: 'not-allowed' },
    },
    content: { _focusVisible: focusRing },
    indicator: { display: 'none' },
  },
});
