import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { FormAlert } from '../form-kit';
import { SuccessIcon } from './success-icon';

const signInClass = css({ display: 'flex', alignItems: 'center', justifyContent: 'center', width: 'full', height: '12', borderRadius: 'md', bg: 'accent.default', color: 'accent.fg', fontWeight: 'medium', cursor: 'pointer', _hover: { bg: 'accent.emphasized' } });

/**
 * The end of a password flow: 'sc' (setup complete) or 'cp' (changed password), with the way to sign in:
 * a link to the sign-in page of `admin`; with `onSignIn` a click calls it instead (a machine takes the person there).
 */
export function PasswordSavedCard({ flowCode, admin, screen, onSignIn }: { flowCode: 'sc' | 'cp'; admin: boolean; screen?: `screen:${string}`; onSignIn?: () => void }) {
  return (
    <AuthCard screen={screen}>
      <SuccessIcon />
      <PageHeading>{flowCode === 'sc' ? <Trans>Your account is ready</Trans> : <Trans>Password changed</Trans>}</PageHeading>
      <FormAlert tone="success">
        {flowCode === 'sc' ? (
          <Trans>Your password is saved and your profile setup is complete. You can sign in now.</Trans>
        ) : (
          <Trans>Your password has been changed. Sign in with your new password.</Trans>
        )}
      </FormAlert>
      <div className={css({ mt: '6' })}>
        {onSignIn ? (
          <a
            href={admin ? '/admin/login' : '/login'}
            className={signInClass}
            onClick={(event) => {
              event.preventDefault();
              onSignIn();
            }}
          >
            <Trans>Go to sign in</Trans>
          </a>
        ) : (
          <Link to={admin ? '/admin/login' : '/login'} className={signInClass}>
            <Trans>Go to sign in</Trans>
          </Link>
        )}
      </div>
    </AuthCard>
  );
}
