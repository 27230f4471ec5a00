import { paginationAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { focusRing } from './focus-ring';

export const pagination = defineSlotRecipe({
  className: 'pagination',
  slots: [...paginationAnatomy.keys(), 'summary', 'pageSize'],
  base: {
    root: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      flexWrap: 'wrap',
      gap: '4',
      fontSize: 'sm',
    },
    summary: { color: 'fg.muted' },
    pageSize: { display: 'flex', alignItems: 'center', gap: '2', color: 'fg.muted' },
    item: {
      minWidth: '8',
      height: '8',
      px: '2',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.default',
      bg: 'bg.surface',
      cursor: 'pointer',
      _hover: { bg: 'bg.subtle' },
      _selected: { bg: 'accent.default', color: 'accent.fg', borderColor: 'accent.default' },
      _focusVisible: focusRing,
    },
    ellipsis: { px: '2', color: 'fg.muted' },
    prevTrigger: {
      height: '8',
      px: '2',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.default',
      bg: 'bg.surface',
      cursor: 'pointer',
      _disabled: { opacity: 0.5, cursor: 'not-allowed' },
      _focusVisible: focusRing,
    },
    nextTrigger: {
      height: '8',
      px: '2',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.default',
      bg: 'bg.surface',
      cursor: 'pointer',
      _disabled: { opacity: 0.5, cursor: 'not-allowed' },
      _focusVisible: focusRing,
    },
  },
});
