import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { FormAlert } from '../form-kit';
import { SuccessIcon } from './success-icon';

/** The end of a password flow: 'sc' (setup complete) or 'cp' (changed password), with the way to sign in. */
export function PasswordSavedCard({ flowCode, admin }: { flowCode: 'sc' | 'cp'; admin: boolean }) {
  return (
    <AuthCard>
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
        <Link to={admin ? '/admin/login' : '/login'} className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '12', borderRadius: 'md', bg: 'accent.default', color: 'accent.fg', fontWeight: 'medium', _hover: { bg: 'accent.emphasized' } })}>
          <Trans>Go to sign in</Trans>
        </Link>
      </div>
    </AuthCard>
  );
}
