import { defineRecipe } from '@pandacss/dev';
import { focusRing } from './focus-ring';

export const button = defineRecipe({
  className: 'button',
  jsx: ['Button'],
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    borderRadius: 'md',
    fontWeight: 'medium',
    // a long label (French, Italian) wraps inside the button instead of pushing it out of its column
    whiteSpace: 'normal',
    textAlign: 'center',
    lineHeight: 'tight',
    maxWidth: 'full',
    cursor: 'pointer',
    userSelect: 'none',
    borderWidth: '1px',
    borderColor: 'transparent',
    transitionProperty: 'background-color, border-color, color, box-shadow',
    transitionDuration: 'fast',
    _focusVisible: focusRing,
    _disabled: { opacity: 0.5, cursor: 'not-allowed' },
    '& svg': { width: '1.1em', height: '1.1em', flexShrink: 0 },
  },
  variants: {
    variant: {
      solid: {
        bg: 'accent.default',
        color: 'accent.fg',
        _hover: { _enabled: { bg: 'accent.emphasized' } },
      },
      outline: {
        bg: 'bg.surface',
        color: 'fg.default',
        borderColor: 'border.strong',
        _hover: { _enabled: { bg: 'bg.subtle' } },
      },
      ghost: {
        bg: 'transparent',
        color: 'fg.default',
        _hover: { _enabled: { bg: 'bg.subtle' } },
      },
      danger: {
        bg: 'danger.default',
        color: 'fg.inverted',
        _hover: { _enabled: { bg: 'danger.emphasized' } },
      },
      link: {
        bg: 'transparent',
        color: 'accent.text',
        px: '0 !important',
        py: '0 !important',
        minHeight: 'auto !important',
        _hover: { textDecoration: 'underline' },
      },
    },
    size: {
      sm: { minHeight: '8', px: '3', py: '1', fontSize: 'sm' },
      md: { minHeight: '10', px: '4', py: '1.5', fontSize: 'sm' },
      lg: { minHeight: '12', px: '5', py: '2', fontSize: 'md' },
      icon: { height: '10', width: '10', px: '0', fontSize: 'md' },
    },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
});
