import { Toast as ArkToast, Toaster as ArkToaster } from '@ark-ui/react/toast';
import { useLingui } from '@lingui/react/macro';
import { toast as toastRecipe } from 'styled-system/recipes';
import { XIcon } from './icons';
import { createStyleContext } from './style-context';
import { bottomToaster, headerToaster } from './toaster';

const { withProvider, withContext } = createStyleContext(toastRecipe);

const Root = withProvider(ArkToast.Root, 'root');
const Title = withContext(ArkToast.Title, 'title');
const Description = withContext(ArkToast.Description, 'description');
const CloseTrigger = withContext(ArkToast.CloseTrigger, 'closeTrigger');

export function Toaster() {
  const { t } = useLingui();
  // each lane is a landmark named in the person's language (Ark's own name is English: 'Notifications, bottom (alt+T)')
  return (
    <>
      <ToastGroup toaster={headerToaster} label={t`Notifications`} />
      <ToastGroup toaster={bottomToaster} label={t`Notifications at the bottom of the page`} />
    </>
  );
}

function ToastGroup({ toaster, label }: { toaster: typeof headerToaster; label: string }) {
  const { t } = useLingui();
  return (
    <ArkToaster toaster={toaster} aria-label={label}>
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
