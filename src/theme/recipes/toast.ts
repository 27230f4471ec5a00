import { toastAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';

export const toast = defineSlotRecipe({
  className: 'toast',
  slots: toastAnatomy.keys(),
  base: {
    root: {
      bg: 'bg.surface',
      borderWidth: '1px',
      borderColor: 'border.default',
      borderRadius: 'lg',
      boxShadow: 'lg',
      minWidth: '72',
      maxWidth: 'sm',
      p: '4',
      pe: '10',
      position: 'relative',
      height: 'var(--height)',
      opacity: 'var(--opacity)',
      overflowWrap: 'anywhere',
      scale: 'var(--scale)',
      translate: 'var(--x) var(--y)',
      zIndex: 'var(--z-index)',
      willChange: 'translate, opacity, scale',
      transitionDuration: 'normal',
      transitionProperty: 'translate, scale, opacity, height',
      '&[data-type=error]': { borderColor: 'border.error' },
      '&[data-type=success]': { borderColor: 'success.600' },
    },
    title: { fontWeight: 'semibold', fontSize: 'sm', color: 'fg.default' },
    description: { fontSize: 'sm', color: 'fg.muted' },
    actionTrigger: { mt: '2' },
    closeTrigger: { position: 'absolute', top: '2', insetEnd: '2' },
  },
});
