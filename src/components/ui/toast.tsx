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
  return (
    <>
      <ToastGroup toaster={headerToaster} />
      <ToastGroup toaster={bottomToaster} />
    </>
  );
}

function ToastGroup({ toaster }: { toaster: typeof headerToaster }) {
  const { t } = useLingui();
  return (
    <ArkToaster toaster={toaster}>
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
