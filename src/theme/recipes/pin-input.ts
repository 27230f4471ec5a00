import { pinInputAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { invalidFocus } from './focus-ring';

export const pinInput = defineSlotRecipe({
  className: 'pinInput',
  slots: pinInputAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5' },
    label: { fontSize: 'sm', fontWeight: 'medium' },
    // six cells fit a 360 px phone: they shrink below 40 px rather than overflow the card
    control: { display: 'flex', gap: { base: '1.5', sm: '2' }, maxWidth: 'full' },
    input: {
      flex: '1 1 0',
      minWidth: '0',
      maxWidth: '10',
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
      _invalid: { borderColor: 'border.error', _focusVisible: invalidFocus },
    },
  },
});
