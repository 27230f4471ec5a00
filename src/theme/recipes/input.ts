import { defineRecipe } from '@pandacss/dev';
import { fieldBox } from './field-box';
import { invalidFocus } from './focus-ring';

export const input = defineRecipe({
  className: 'input',
  jsx: ['Input', 'Field.Input'],
  base: {
    appearance: 'none',
    width: '100%',
    minWidth: '0',
    ...fieldBox,
    transitionProperty: 'border-color, box-shadow',
    transitionDuration: 'fast',
    // Not `_invalid`: it includes the native :invalid, which marks every empty required field red before any input.
    // An invalid field keeps its red border when focused and gets the focus ring outside it (2 px, 2 px away, the focus
    // colour): focused and invalid look different, not a slightly thicker red line.
    '&[data-invalid], &[aria-invalid=true]': { borderColor: 'border.error', _focusVisible: invalidFocus },
    _disabled: { opacity: 0.6, cursor: 'not-allowed', bg: 'bg.subtle' },
  },
  variants: {
    size: {
      sm: { height: '8', px: '2.5', fontSize: 'sm' },
      md: { height: '10', px: '3', fontSize: 'sm' },
      lg: { height: '12', px: '3.5', fontSize: 'md' },
    },
  },
  defaultVariants: { size: 'md' },
});
