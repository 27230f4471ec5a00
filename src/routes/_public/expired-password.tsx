import { msg } from '@lingui/core/macro';
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ExpiredPasswordScreen } from '../../features/account/password/expired-password-screen';

/** Reached from the login machine (`password_expired` + reset_token kept in sessionStorage). */
export const Route = createFileRoute('/_public/expired-password')({
  staticData: { title: msg`Password expired` },
  validateSearch: z.object({ type: z.enum(['admin']).optional().catch(undefined) }),
  component: ExpiredPasswordScreen,
});
