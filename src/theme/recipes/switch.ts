import { switchAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';
import { focusRing } from './focus-ring';

export const switchRecipe = defineSlotRecipe({
  className: 'switch',
  slots: switchAnatomy.keys(),
  base: {
    root: { display: 'inline-flex', alignItems: 'center', gap: '2', cursor: 'pointer', _disabled: { opacity: 0.5, cursor: 'not-allowed' } },
    control: {
      display: 'inline-flex',
      alignItems: 'center',
      flexShrink: 0,
      width: '10',
      height: '6',
      p: '0.5',
      borderRadius: 'full',
      bg: 'neutral.300',
      transition: 'background-color token(durations.fast)',
      _checked: { bg: 'accent.default' },
      '[data-focus-visible] &, &[data-focus-visible]': focusRing,
    },
    thumb: {
      width: '5',
      height: '5',
      borderRadius: 'full',
      bg: 'bg.surface',
      boxShadow: 'sm',
      transition: 'transform token(durations.fast)',
      _checked: { transform: 'translateX(16px)' },
    },
    label: { fontSize: 'sm', color: 'fg.default' },
  },
});
