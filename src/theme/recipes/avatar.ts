import { avatarAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';

export const avatar = defineSlotRecipe({
  className: 'avatar',
  slots: avatarAnatomy.keys(),
  base: {
    root: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      flexShrink: 0,
      borderRadius: 'full',
      overflow: 'hidden',
      bg: 'brand.100',
      color: 'brand.800',
      fontWeight: 'semibold',
      userSelect: 'none',
    },
    image: { width: 'full', height: 'full', objectFit: 'cover' },
    fallback: { display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: 'full', height: 'full', textTransform: 'uppercase' },
  },
  variants: {
    size: {
      sm: { root: { width: '8', height: '8', fontSize: 'xs' } },
      md: { root: { width: '10', height: '10', fontSize: 'sm' } },
      lg: { root: { width: '16', height: '16', fontSize: 'lg' } },
      xl: { root: { width: '24', height: '24', fontSize: '2xl' } },
    },
  },
  defaultVariants: { size: 'md' },
});
