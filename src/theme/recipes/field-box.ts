/**
 * The box of a typed field (the input, the date field's input): the surface, a strong border, the placeholder's and
 * the focus's colours. Sizes and the invalid state stay with each recipe.
 */
export const fieldBox = {
  bg: 'bg.surface',
  color: 'fg.default',
  borderWidth: '1px',
  borderColor: 'border.strong',
  borderRadius: 'md',
  outline: 'none',
  _placeholder: { color: 'fg.subtle' },
  _focusVisible: { borderColor: 'focusRing', boxShadow: '0 0 0 1px token(colors.focusRing)' },
} as const;
