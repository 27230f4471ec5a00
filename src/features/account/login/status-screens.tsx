/** The sign-in screens without a form: redirecting, authorization failed, sign-in expired, account deactivated. */
import { Trans } from "@lingui/react/macro";
import { LoadingBar } from "../../../components/loading-bar";
import { AuthCard } from "../../../components/page-heading";
import { Button } from "../../../components/ui/button";
import { FormAlert, formStack, mutedText } from "../form-kit";
import { ScreenHeading } from "./login-heading";

export function SignInTitle({ admin }: { admin: boolean }) {
  return admin ? <Trans>Admin sign in</Trans> : <Trans>Sign in</Trans>;
}

/** `screen:login.redirecting`: the browser is on its way (to the sign-in provider, or back to the app). */
export function RedirectingScreen({ admin }: { admin: boolean }) {
  return (
    <AuthCard screen="screen:login.redirecting">
      <ScreenHeading title={<SignInTitle admin={admin} />} />
      <LoadingBar />
      <p className={mutedText}>
        <Trans>Redirecting to the secure sign-in…</Trans>
      </p>
    </AuthCard>
  );
}

/** While the code of the next screen loads (it is not in the first load of /login): the card with a loading bar. */
export function ScreenLoading({ admin }: { admin: boolean }) {
  return (
    <AuthCard busy>
      <ScreenHeading title={<SignInTitle admin={admin} />} />
      <LoadingBar />
    </AuthCard>
  );
}

/** `screen:login.authorization-failed`: the sign-in could not be started (no answer from the server). */
export function AuthorizationFailedScreen({
  admin,
  message,
  onRetry,
}: {
  admin: boolean;
  message: string | null;
  onRetry: () => void;
}) {
  return (
    <AuthCard screen="screen:login.authorization-failed">
      <ScreenHeading title={<SignInTitle admin={admin} />} />
      <div className={formStack}>
        <FormAlert>{message}</FormAlert>
        <Button size="lg" onClick={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    </AuthCard>
  );
}

/** `screen:login.sign-in-expired`: the interaction (or the expired-password token) is gone; a new sign-in starts. */
export function SignInExpiredScreen({
  admin,
  onRestart,
}: {
  admin: boolean;
  onRestart: () => void;
}) {
  return (
    <AuthCard screen="screen:login.sign-in-expired">
      <ScreenHeading title={<Trans>Sign-in expired</Trans>} />
      <div className={formStack}>
        <FormAlert focus={false} tone="info">
          <Trans>
            Your sign-in took too long and has expired. Please sign in again.
          </Trans>
        </FormAlert>
        <Button size="lg" onClick={onRestart}>
          {admin ? (
            <Trans>Go to admin sign in</Trans>
          ) : (
            <Trans>Sign in again</Trans>
          )}
        </Button>
      </div>
    </AuthCard>
  );
}

/**
 * `screen:login.foreign-browser`: the link's sign-in was started in another browser and this page cannot start it
 * again here: a service app's (only the app can), or this browser already came back from such a restart (it keeps no
 * cookie). The portal and the admin console offer to try once more.
 */
export function ForeignBrowserScreen({
  admin,
  serviceApp,
  onRestart,
}: {
  admin: boolean;
  serviceApp: boolean;
  onRestart: () => void;
}) {
  return (
    <AuthCard screen="screen:login.foreign-browser">
      <ScreenHeading title={<Trans>Sign-in started in another browser</Trans>} />
      <div className={formStack}>
        <FormAlert focus={false} tone="info">
          {serviceApp ? (
            <Trans>
              This sign-in was started in another browser or window. Go back to the app you came from and start the sign-in again there.
            </Trans>
          ) : (
            <Trans>
              This sign-in could not be continued in this browser. Make sure cookies are allowed for this site, then sign in again.
            </Trans>
          )}
        </FormAlert>
        {serviceApp ? null : (
          <Button size="lg" onClick={onRestart}>
            {admin ? <Trans>Go to admin sign in</Trans> : <Trans>Sign in again</Trans>}
          </Button>
        )}
      </div>
    </AuthCard>
  );
}

/** `screen:login.account-inactive`: every factor passed, the account is deactivated. Trying again cannot help. */
export function AccountInactiveScreen({ message }: { message: string | null }) {
  return (
    <AuthCard screen="screen:login.account-inactive">
      <ScreenHeading title={<Trans>Account deactivated</Trans>} />
      <FormAlert>{message}</FormAlert>
    </AuthCard>
  );
}
