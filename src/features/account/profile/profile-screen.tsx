/**
 * Profile for users (/profile) and admins (/admin/profile): avatar, personal
 * info (name, phone, language), password change with the live policy
 * checklist, two-factor setup driven by the twoFactorSetup machine, passkeys (passkeyRegistration machine), and the live sessions.
 */
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { css } from 'styled-system/css';
import { currentAdminQueryOptions, currentUserQueryOptions, type AccountKind } from '../../../api/account';
import { LoadingBar } from '../../../components/loading-bar';
import { PageHeading } from '../../../components/page-heading';
import { LoadFailed } from '../form-kit';
import { AvatarSection } from './avatar-section';
import { ChangePasswordSection } from './change-password-section';
import { PersonalInfoSection } from './personal-info-section';
import { TwoFactorSection } from './two-factor-section';
import { SessionsSection } from './sessions-section';
import { PasskeysSection } from './passkeys-section';

export const profileTitle = msg`Profile`;

export function ProfileScreen({ kind }: { kind: AccountKind }) {
  const userQuery = useQuery({ ...currentUserQueryOptions(), enabled: kind === 'user' });
  const adminQuery = useQuery({ ...currentAdminQueryOptions(), enabled: kind === 'admin' });
  const query = kind === 'admin' ? adminQuery : userQuery;
  if (query.isPending) return <LoadingBar />;
  if (query.isError) return <LoadFailed onRetry={() => void query.refetch()} />;
  const user = query.data.auth_user;
  return (
    <div className={css({ maxWidth: '3xl', mx: kind === 'user' ? 'auto' : '0', width: 'full' })}>
      {/* PageHeading brings its own bottom margin, as on the other admin pages: the gap applies between sections only */}
      <PageHeading>
        <Trans>Profile</Trans>
      </PageHeading>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
        <AvatarSection kind={kind} user={user} />
        <PersonalInfoSection kind={kind} user={user} />
        <ChangePasswordSection kind={kind} sso={user.auth_type === 'SSO'} />
        <TwoFactorSection key={`${String(query.data['2fa'].enabled)}-${user.phone ?? ''}`} kind={kind} phone={user.phone} status={query.data['2fa']} />
        <PasskeysSection kind={kind} />
        <SessionsSection kind={kind} />
      </div>
    </div>
  );
}
