import { dialogAnatomy } from '@ark-ui/react/anatomy';
import { defineSlotRecipe } from '@pandacss/dev';

export const dialog = defineSlotRecipe({
  className: 'dialog',
  slots: dialogAnatomy.keys(),
  base: {
    backdrop: { position: 'fixed', inset: '0', bg: 'rgba(15, 23, 42, 0.5)', zIndex: 'overlay' },
    positioner: {
      position: 'fixed',
      inset: '0',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      p: '4',
      zIndex: 'modal',
    },
    content: {
      position: 'relative',
      bg: 'bg.surface',
      borderRadius: 'xl',
      boxShadow: 'lg',
      width: 'full',
      maxWidth: 'md',
      maxHeight: 'calc(100dvh - 2rem)',
      overflowY: 'auto',
      p: '6',
      display: 'flex',
      flexDirection: 'column',
      gap: '4',
      outline: 'none',
    },
    title: { textStyle: 'sectionTitle', color: 'fg.default' },
    description: { fontSize: 'sm', color: 'fg.muted' },
    closeTrigger: { position: 'absolute', top: '3', insetEnd: '3' },
  },
});
