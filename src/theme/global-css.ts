import { defineGlobalStyles } from '@pandacss/dev';

export const globalCss = defineGlobalStyles({
  'html, body': {
    fontFamily: 'body',
    color: 'fg.default',
    bg: 'bg.canvas',
    WebkitFontSmoothing: 'antialiased',
    MozOsxFontSmoothing: 'grayscale',
  },
  '#root': { minHeight: '100dvh', display: 'flex', flexDirection: 'column' },
  ':focus-visible': {
    outline: '2px solid token(colors.focusRing)',
    outlineOffset: '2px',
  },
  // toasts at the bottom of the screen (phones, components/ui/toast-lane.ts): the page gets their height at its end and
  // focus scrolls controls clear of them (WCAG 2.4.11)
  'html:has([data-scope=toast][data-part=group][data-placement=bottom] [data-part=root])': { scrollPaddingBottom: '7rem' },
  'body:has([data-scope=toast][data-part=group][data-placement=bottom] [data-part=root])': { paddingBottom: '7rem' },
  '@media (prefers-reduced-motion: reduce)': {
    '*, *::before, *::after': { transitionDuration: '0.01ms !important', animationDuration: '0.01ms !important' },
  },
});
