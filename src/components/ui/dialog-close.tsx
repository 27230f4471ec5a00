import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import * as Dialog from './dialog';
import { XIcon } from './icons';

/** The "Close" (x) button in a dialog's top corner. */
export function DialogClose() {
  const { t } = useLingui();
  return (
    <Dialog.CloseTrigger aria-label={t`Close`} className={css({ position: 'absolute', top: '4', insetEnd: '4', p: '1', borderRadius: 'md', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'bg.subtle' } })}>
      <XIcon width={18} height={18} />
    </Dialog.CloseTrigger>
  );
}
