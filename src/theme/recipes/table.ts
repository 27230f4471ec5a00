import { defineSlotRecipe } from '@pandacss/dev';

export const table = defineSlotRecipe({
  className: 'table',
  slots: ['root', 'caption', 'head', 'body', 'footer', 'row', 'header', 'cell'],
  base: {
    root: { width: 'full', borderCollapse: 'collapse', fontSize: 'sm', bg: 'bg.surface' },
    caption: { captionSide: 'bottom', py: '2', color: 'fg.muted', fontSize: 'xs' },
    head: { bg: 'bg.subtle' },
    body: {},
    footer: { fontWeight: 'medium' },
    row: {
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      _hover: { '[data-interactive] &': { bg: 'bg.subtle' } },
    },
    header: {
      textAlign: 'start',
      fontWeight: 'semibold',
      color: 'fg.muted',
      px: '4',
      py: '3',
      // long French and Italian headers ("Type d'authentification") wrap between words instead of widening the table
      whiteSpace: 'normal',
      overflowWrap: 'normal',
    },
    cell: { px: '4', py: '3', verticalAlign: 'middle' },
  },
});
