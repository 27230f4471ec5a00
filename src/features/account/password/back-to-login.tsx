import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { linkClass } from '../form-kit';

/** The way back to the sign-in page under a password flow's card. */
export function BackToLogin({ admin }: { admin: boolean }) {
  return (
    <p className={css({ textAlign: 'center', mt: '2' })}>
      <Link to={admin ? '/admin/login' : '/login'} className={linkClass}>
        <Trans>Back to sign in</Trans>
      </Link>
    </p>
  );
}
