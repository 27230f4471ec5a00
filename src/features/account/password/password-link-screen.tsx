/** Reset password / verify invitation (verifyInvitation machine). */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { css } from 'styled-system/css';
import { createVerifyActors, verifyInvitationMachine, type VerifyFlow, type VerifyInvitationMachine } from '../../../../machines/verifyInvitation.machine';
import { call } from '../../../api/call';
import { LoadingBar } from '../../../components/loading-bar';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { inspectOptions } from '../../../lib/inspect';
import { errorInfoMessage, FormAlert, formStack, linkClass, mutedText } from '../form-kit';
import { BackToLogin } from './back-to-login';
import { NewPasswordForm } from './new-password-form';
import { PasswordSavedCard } from './password-saved-card';

export interface PasswordLinkScreenProps {
  flow: VerifyFlow;
  admin: boolean;
  url: string | undefined;
  machineOverride?: VerifyInvitationMachine;
}

/** `/reset-password?url=`, `/admin/reset-password?url=`, `/verify/$type?url=`. */
export function PasswordLinkScreen({ flow, admin, url, machineOverride }: PasswordLinkScreenProps) {
  const { i18n } = useLingui();
  const real = useMemo(() => verifyInvitationMachine.provide({ actors: createVerifyActors({ call }) }), []);
  const [snapshot, send] = useMachine(machineOverride ?? real, { ...inspectOptions(), input: { flow, admin, url: url ?? null } });
  const heading = flow === 'verify' ? <Trans>Finish your profile setup</Trans> : <Trans>Choose a new password</Trans>;

  if (snapshot.hasTag('route:verify-done')) return <PasswordSavedCard flowCode={snapshot.context.flowCode === 'sc' ? 'sc' : 'cp'} admin={admin} />;
  if (snapshot.hasTag('route:verify-invalid')) {
    return (
      <AuthCard>
        <PageHeading>
          <Trans>Link expired or invalid</Trans>
        </PageHeading>
        <FormAlert focus={false}>
          <Trans>This link is invalid or has expired</Trans>
        </FormAlert>
        <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted' })}>
          {flow === 'verify' ? (
            <Trans>Ask your administrator to send you a new invitation.</Trans>
          ) : (
            <Trans>
              Request a new link on the{' '}
              <Link to="/forgot-password" search={admin ? { type: 'admin' } : {}} className={linkClass}>
                forgot password
              </Link>{' '}
              page.
            </Trans>
          )}
        </p>
        <BackToLogin admin={admin} />
      </AuthCard>
    );
  }
  if (snapshot.hasTag('route:verify-unavailable')) {
    return (
      <AuthCard>
        <PageHeading>{heading}</PageHeading>
        <div className={formStack}>
          <FormAlert>{errorInfoMessage(i18n, snapshot.context.error)}</FormAlert>
          <Button size="lg" onClick={() => send({ type: 'RETRY' })}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      </AuthCard>
    );
  }
  if (snapshot.hasTag('route:verify-form')) {
    const error = snapshot.context.error;
    const fieldsOnly = error?.code === 'validation_failed';
    return (
      <AuthCard>
        <PageHeading>{heading}</PageHeading>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '-4', mb: '5' })}>
          {flow === 'verify' ? <Trans>Choose a password to finish setting up your account.</Trans> : <Trans>Choose a new password for your account.</Trans>}
        </p>
        <NewPasswordForm
          submitLabel={flow === 'verify' ? <Trans>Save password</Trans> : <Trans>Change password</Trans>}
          loading={snapshot.hasTag('loading')}
          error={error && !fieldsOnly ? errorInfoMessage(i18n, error) : null}
          serverError={error?.fields ? { fields: error.fields } : undefined}
          onSubmit={(values) => send({ type: 'SUBMIT', ...values })}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard>
      <PageHeading>{heading}</PageHeading>
      <LoadingBar label={i18n._(msg`Checking the link…`)} />
      <p className={mutedText}>
        <Trans>Checking the link…</Trans>
      </p>
    </AuthCard>
  );
}
