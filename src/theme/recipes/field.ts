import { fieldAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';

export const field = defineSlotRecipe({
  className: 'field',
  slots: fieldAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5' },
    label: {
      fontSize: 'sm',
      fontWeight: 'medium',
      color: 'fg.default',
      _disabled: { opacity: 0.6 },
    },
    requiredIndicator: { color: 'fg.error', ms: '0.5' },
    input: {},
    textarea: {},
    select: {},
    helperText: { fontSize: 'xs', color: 'fg.muted' },
    errorText: { fontSize: 'xs', color: 'fg.error', fontWeight: 'medium' },
  },
});
