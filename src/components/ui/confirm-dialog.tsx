import { Trans } from '@lingui/react/macro';
import { useRef, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from './button';
import * as Dialog from './dialog';
import { DialogFooter } from './dialog-footer';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  pending?: boolean;
  /** Shown under the description, e.g. a refusal from the server. */
  error?: ReactNode;
  /** The `data-screen` of the dialog when a statechart screen shows it (`screen:apikey.confirm-revoke`). */
  screen?: string;
}

/** Destructive-action confirmation; focus starts on Cancel. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, onConfirm, pending, error, screen }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} role="alertdialog" lazyMount unmountOnExit initialFocusEl={() => cancelRef.current}>
      <Dialog.Panel data-screen={screen}>
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description>{description}</Dialog.Description>
        {error ? (
          <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error', bg: 'danger.50', borderRadius: 'md', px: '3', py: '2' })}>
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button ref={cancelRef} variant="outline" onClick={() => onOpenChange(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending} aria-busy={pending || undefined}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </Dialog.Panel>
    </Dialog.Root>
  );
}
