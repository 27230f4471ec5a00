import { msg } from '@lingui/core/macro';

/** Route titles defined in src/features/account so they land in the account catalog; apart from the screens so that routes (staticData) do not pull them in eagerly. */
export const pageTitles = {
  setup: msg`Set up the administrator account`,
  forgotPassword: msg`Forgot password`,
};
