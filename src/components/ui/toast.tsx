import { Toast as ArkToast, Toaster as ArkToaster } from '@ark-ui/react/toast';
import { useLingui } from '@lingui/react/macro';
import { toast as toastRecipe } from 'styled-system/recipes';
import { XIcon } from './icons';
import { createStyleContext } from './style-context';
import { css } from 'styled-system/css';
import { createPortal } from 'react-dom';
import { usePhoneToastSlot } from './toast-lane';
import { headerToaster, phoneToaster } from './toaster';

const { withProvider, withContext } = createStyleContext(toastRecipe);

const Root = withProvider(ArkToast.Root, 'root');
const Title = withContext(ArkToast.Title, 'title');
const Description = withContext(ArkToast.Description, 'description');
const CloseTrigger = withContext(ArkToast.CloseTrigger, 'closeTrigger');

export function Toaster() {
  const { t } = useLingui();
  // each lane is a landmark named in the person's language (Ark's own name is English: 'Notifications, top-end (alt+T)')
  return (
    <>
      <ToastGroup toaster={headerToaster} label={t`Notifications`} />
      <PhoneToasts />
    </>
  );
}

/**
 * The phone lane (./toast-lane.ts): zag places a toast group `position: fixed`; this one goes (by a portal) into the
 * layout's slot right under its header, which is sticky there, and stays in the page's flow: 0 px high when empty and
 * the front toast's height (zag's `--first-height`) plus room for the ones peeking behind it when not, so a toast pushes
 * the page down rather than covering it. Scroll anchoring is off meanwhile (theme/global-css.ts): it would scroll the
 * page along and put the content back under the band. Without a layout on screen it is an overlay at the top.
 */
function PhoneToasts() {
  const { t } = useLingui();
  const slot = usePhoneToastSlot();
  const group = <ToastGroup toaster={phoneToaster} label={t`Notifications under the header`} className={slot ? inFlow : undefined} />;
  return slot ? createPortal(group, slot) : group;
}

const inFlow = css({
  position: 'relative !important',
  insetInline: 'auto !important',
  top: 'auto !important',
  width: '100%',
  height: '0',
  alignItems: 'center !important',
  transitionProperty: 'height',
  transitionDuration: 'normal',
  '&:has([data-part=root])': { height: 'calc(var(--first-height) + 16px)' },
  '& [data-part=root]': { top: '8px !important' },
});

function ToastGroup({ toaster, label, className }: { toaster: typeof headerToaster; label: string; className?: string }) {
  const { t } = useLingui();
  return (
    <ArkToaster toaster={toaster} aria-label={label} className={className} data-lane={toaster === phoneToaster ? 'phone' : 'header'}>
      {(toast) => (
        <Root key={toast.id}>
          {toast.title ? <Title>{toast.title}</Title> : null}
          {toast.description ? <Description>{toast.description}</Description> : null}
          <CloseTrigger aria-label={t`Dismiss notification`}>
            <XIcon width={16} height={16} />
          </CloseTrigger>
        </Root>
      )}
    </ArkToaster>
  );
}
