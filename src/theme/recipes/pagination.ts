import { paginationAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { focusRing } from './focus-ring';

/** A button of the pagination: a page's number, the previous and the next page. */
const pageButton = {
  height: '8',
  px: '2',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.default',
  bg: 'bg.surface',
  cursor: 'pointer',
  _focusVisible: focusRing,
} as const;

/** The previous and next page buttons: disabled on the first and the last page. */
const stepTrigger = { ...pageButton, _disabled: { opacity: 0.5, cursor: 'not-allowed' } } as const;

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
      ...pageButton,
      _hover: { bg: 'bg.subtle' },
      _selected: { bg: 'accent.default', color: 'accent.fg', borderColor: 'accent.default' },
    },
    ellipsis: { px: '2', color: 'fg.muted' },
    prevTrigger: stepTrigger,
    nextTrigger: stepTrigger,
  },
});
