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
      // wide screens: the header's free lane (components/ui/toast-lane.ts), up to 24rem; phones: the lane under the
      // header, full width up to 32rem
      width: 'min(24rem, var(--toast-lane-width, 24rem))',
      maxWidth: 'calc(100vw - 16px)',
      '[data-lane=phone] &': { width: 'min(32rem, calc(100% - 16px))' },
      ps: '4',
      py: '2',
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
    title: { fontWeight: 'semibold', fontSize: 'sm', lineHeight: '1.25rem', color: 'fg.default' },
    description: { fontSize: 'sm', lineHeight: '1.25rem', color: 'fg.muted' },
    actionTrigger: { mt: '2' },
    closeTrigger: { position: 'absolute', top: '50%', translate: '0 -50%', insetEnd: '2' },
  },
});
