import { pinInputAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';

export const pinInput = defineSlotRecipe({
  className: 'pinInput',
  slots: pinInputAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5' },
    label: { fontSize: 'sm', fontWeight: 'medium' },
    control: { display: 'flex', gap: '2' },
    input: {
      width: '10',
      height: '12',
      textAlign: 'center',
      fontSize: 'lg',
      fontFamily: 'mono',
      borderWidth: '1px',
      borderColor: 'border.strong',
      borderRadius: 'md',
      bg: 'bg.surface',
      outline: 'none',
      _focusVisible: { borderColor: 'focusRing', boxShadow: '0 0 0 1px token(colors.focusRing)' },
      _invalid: { borderColor: 'border.error' },
    },
  },
});
