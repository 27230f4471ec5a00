/**
 * Reset password / verify invitation (verifyInvitation machine). Each screen follows a `screen:verify.*`
 * tag and carries it as `data-screen`; the machine leaves the page itself (injected `navigate`).
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { createVerifyActors, verifyInvitationMachine, type VerifyFlow, type VerifyInvitationMachine } from '../../../../machines/verifyInvitation.machine';
import type { PageTarget } from '../../../../machines/navigation';
import { call } from '../../../api/call';
import { ApiError } from '../../../api/errors';
import { LoadingBar } from '../../../components/loading-bar';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { inspectOptions } from '../../../lib/inspect';
import { accountErrorText } from '../error-words';
import { FormAlert, formStack, linkClass, mutedText } from '../form-kit';
import { NewPasswordForm } from './new-password-form';
import { PasswordSavedCard } from './password-saved-card';

export interface PasswordLinkScreenProps {
  flow: VerifyFlow;
  admin: boolean;
  url: string | undefined;
  machineOverride?: VerifyInvitationMachine;
}

/** A link whose click the machine handles (it navigates itself); the href keeps it a link (new tab, copy). */
function MachineLink({ href, onClick, children }: { href: string; onClick: () => void; children: ReactNode }) {
  return (
    <a
      href={href}
      className={linkClass}
      onClick={(event) => {
        event.preventDefault();
        onClick();
      }}
    >
      {children}
    </a>
  );
}

/** `/reset-password?url=`, `/admin/reset-password?url=`, `/verify/{user,admin}?url=` (and the older `/verify/{verify,resetPassword}`). */
export function PasswordLinkScreen({ flow, admin, url, machineOverride }: PasswordLinkScreenProps) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const machine = useMemo(
    () =>
      (machineOverride ?? verifyInvitationMachine.provide({ actors: createVerifyActors({ call }) })).provide({
        actions: { navigate: (_, params: PageTarget) => void navigate({ to: params.to, search: params.search ?? {} }) },
      }),
    [machineOverride, navigate],
  );
  const [snapshot, send] = useMachine(machine, { ...inspectOptions(), input: { flow, admin, url: url ?? null } });
  const error = snapshot.context.error;
  // the form puts a 422's field codes on its fields (NewPasswordForm reads them from an ApiError); one per answer
  const serverError = useMemo(
    () => (error?.fields ? new ApiError({ kind: 'http', status: error.status ?? 422, code: error.code, message: '', fields: error.fields }) : undefined),
    [error],
  );
  const heading = flow === 'verify' ? <Trans>Finish your profile setup</Trans> : <Trans>Choose a new password</Trans>;
  const signIn = () => send({ type: 'SIGN_IN' });

  if (snapshot.hasTag('screen:verify.done')) {
    return <PasswordSavedCard screen="screen:verify.done" flowCode={snapshot.context.flowCode === 'sc' ? 'sc' : 'cp'} admin={admin} onSignIn={signIn} />;
  }
  if (snapshot.hasTag('screen:verify.invalid')) {
    return (
      <AuthCard screen="screen:verify.invalid">
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
              <MachineLink href={admin ? '/forgot-password?type=admin' : '/forgot-password'} onClick={() => send({ type: 'FORGOT_PASSWORD' })}>
                forgot password
              </MachineLink>{' '}
              page.
            </Trans>
          )}
        </p>
        <p className={css({ textAlign: 'center', mt: '2' })}>
          <MachineLink href={admin ? '/admin/login' : '/login'} onClick={signIn}>
            <Trans>Back to sign in</Trans>
          </MachineLink>
        </p>
      </AuthCard>
    );
  }
  if (snapshot.hasTag('screen:verify.unavailable')) {
    return (
      <AuthCard screen="screen:verify.unavailable">
        <PageHeading>{heading}</PageHeading>
        <div className={formStack}>
          <FormAlert>{accountErrorText(i18n, snapshot.context.error)}</FormAlert>
          <Button size="lg" onClick={() => send({ type: 'RETRY' })}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      </AuthCard>
    );
  }
  if (snapshot.hasTag('screen:verify.form')) {
    const fieldsOnly = error?.code === 'validation_failed';
    return (
      <AuthCard screen="screen:verify.form">
        <PageHeading>{heading}</PageHeading>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '-4', mb: '5' })}>
          {flow === 'verify' ? <Trans>Choose a password to finish setting up your account.</Trans> : <Trans>Choose a new password for your account.</Trans>}
        </p>
        <NewPasswordForm
          submitLabel={flow === 'verify' ? <Trans>Save password</Trans> : <Trans>Change password</Trans>}
          loading={snapshot.hasTag('loading')}
          error={error && !fieldsOnly ? accountErrorText(i18n, error) : null}
          serverError={serverError}
          onSubmit={(values) => send({ type: 'SUBMIT', ...values })}
          onInvalid={(fields) => send({ type: 'INPUT_REJECTED', fields })}
        />
      </AuthCard>
    );
  }
  if (snapshot.hasTag('screen:verify.checking')) {
    return (
      <AuthCard screen="screen:verify.checking">
        <PageHeading>{heading}</PageHeading>
        <LoadingBar label={i18n._(msg`Checking the link…`)} />
        <p className={mutedText}>
          <Trans>Checking the link…</Trans>
        </p>
      </AuthCard>
    );
  }
  // an `exit` state: the machine is taking the person to another page
  return null;
}
