import { Toast as ArkToast, Toaster as ArkToaster, createToaster } from '@ark-ui/react/toast';
import { useLingui } from '@lingui/react/macro';
import { toast as toastRecipe } from 'styled-system/recipes';
import { XIcon } from './icons';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(toastRecipe);

const Root = withProvider(ArkToast.Root, 'root');
const Title = withContext(ArkToast.Title, 'title');
const Description = withContext(ArkToast.Description, 'description');
const CloseTrigger = withContext(ArkToast.CloseTrigger, 'closeTrigger');

/**
 * The app-wide toast store: `toaster.create({ title, description, type })`.
 *
 * Toasts sit in the 64 px header band at the top end (full width on phones), never over the page's own controls:
 * at the bottom end they covered whatever button was there (issue 14: "Generate API key" on a technical user's page,
 * the pagination), and below the header they would cover every page's primary action (Add user, Import users).
 * Compact (one line of title and one of description fit in the band); further toasts hide behind the newest one,
 * peeking out by 4 px, and fan out on hover or focus.
 */
export const toaster = createToaster({
  placement: 'top-end',
  offsets: { top: '4px', right: '8px', bottom: '8px', left: '8px' },
  overlap: true,
  gap: 4,
  max: 3,
});

export function Toaster() {
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
