import { useLingui } from '@lingui/react/macro';
import { browserAndSystem } from '../../../lib/device-name';

/** "Chrome on Linux": the name offered for a passkey made on this device (the person may change it). */
export function useDefaultPasskeyName(): string {
  const { t } = useLingui();
  const { browser, os } = browserAndSystem(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  if (browser && os) return t`${browser} on ${os}`;
  return browser ?? os ?? t`My passkey`;
}
