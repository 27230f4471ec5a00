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
  // a toast in the phone lane (components/ui/toast.tsx PhoneToasts) pushes the page down: scroll anchoring would scroll
  // along and put the content back under the band
  'html:has([data-lane=phone] [data-part=root])': { overflowAnchor: 'none' },
  '@media (prefers-reduced-motion: reduce)': {
    '*, *::before, *::after': { transitionDuration: '0.01ms !important', animationDuration: '0.01ms !important' },
  },
});
