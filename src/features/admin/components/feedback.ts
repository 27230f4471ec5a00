import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { isApiError } from '../../../api/errors';
import { toaster } from '../../../components/ui/toast';

/** Server refusal codes the admin screens explain in their own words. */
const knownErrors: Record<string, MessageDescriptor> = {
  cannot_delete_self: msg`You cannot delete your own admin account`,
  last_super_admin: msg`The last super admin cannot be removed or demoted`,
  role_in_use: msg`This role is still in use`,
  name_taken: msg`This name is already taken`,
  email_taken: msg`This e-mail address is already in use`,
  already_verified: msg`This account is already verified`,
};

export const GENERIC_ERROR = msg`Error ocurred, please try again`;

/** The localized text for an error: a known refusal, else the generic message. */
export function useErrorText() {
  const { i18n } = useLingui();
  return (error: unknown): string => {
    if (isApiError(error) && error.code) {
      const known = knownErrors[error.code];
      if (known) return i18n._(known);
      // 409s carry a localized explanation from the server (e.g. where a role is used).
      if (error.status === 409 && error.message) return error.message;
    }
    return i18n._(GENERIC_ERROR);
  };
}

/** Success and failure toasts for admin actions. */
export function useNotify() {
  const errorText = useErrorText();
  return {
    success: (title: string, description?: string) => toaster.create({ type: 'success', title, description, duration: 5000 }),
    error: (error: unknown, title?: string) => {
      const text = errorText(error);
      return toaster.create({ type: 'error', title: title ?? text, description: title ? text : undefined, duration: 8000 });
    },
  };
}
