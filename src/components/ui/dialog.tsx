import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { ComponentProps } from 'react';
import { dialog } from 'styled-system/recipes';
import { createStyleContext } from './style-context';

const { withRootProvider, withContext } = createStyleContext(dialog);

export const Root = withRootProvider(ArkDialog.Root);
export const Backdrop = withContext(ArkDialog.Backdrop, 'backdrop');
export const Positioner = withContext(ArkDialog.Positioner, 'positioner');
export const Content = withContext(ArkDialog.Content, 'content');
export const Title = withContext(ArkDialog.Title, 'title');
export const Description = withContext(ArkDialog.Description, 'description');
export const CloseTrigger = withContext(ArkDialog.CloseTrigger, 'closeTrigger');

/** Backdrop + positioner + content in a portal: the usual modal body. */
export function Panel({ children, ...props }: ComponentProps<typeof Content>) {
  return (
    <Portal>
      <Backdrop />
      <Positioner>
        <Content {...props}>{children}</Content>
      </Positioner>
    </Portal>
  );
}
