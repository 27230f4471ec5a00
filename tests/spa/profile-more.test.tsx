import { I18nProvider } from '@lingui/react';
import { QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api';
import { avatarProblemFromError } from '../../src/features/account/profile/avatar-section';
import { Toaster } from '../../src/components/ui/toast';
import { TwoFactorSection } from '../../src/features/account/profile/two-factor-section';
import { i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';
import { startAdminServer } from './admin-server';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('avatar refusals from the server', () => {
  const refused = (code: string, status = 422) => new ApiError({ kind: 'http', status, code: 'validation_failed', message: 'x', fields: { avatar: [code] } });
  it('maps the server codes to the visible format/size problems', () => {
    expect(avatarProblemFromError(refused('avatar_invalid_type'))).toBe('format');
    expect(avatarProblemFromError(refused('avatar_too_large_dimensions'))).toBe('size');
    expect(avatarProblemFromError(new ApiError({ kind: 'http', status: 422, code: 'avatar_invalid_type', message: 'x' }))).toBe('format');
  });
  it('leaves everything else to the generic error', () => {
    expect(avatarProblemFromError(refused('avatar_invalid_type', 500))).toBeNull();
    expect(avatarProblemFromError(new ApiError({ kind: 'http', status: 413, code: 'avatar_too_large', message: 'x' }))).toBeNull();
    expect(avatarProblemFromError(new Error('boom'))).toBeNull();
  });
});

describe('two-factor: turning SMS off', () => {
  const wrap = (method: 'SMS' | 'GOOGLE') =>
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={createQueryClient()}>
          <TwoFactorSection kind="user" phone="+4915112345678" status={{ enabled: true, method }} />
          <Toaster />
        </QueryClientProvider>
      </I18nProvider>,
    );

  it('sends the disable code by SMS on request', async () => {
    server = await startAdminServer((req) => (req.method === 'POST' && req.path === '/api/2fa/sms/send' ? { body: { data: { status: 'sent' } } } : undefined));
    wrap('SMS');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send code by SMS' }));
    // beside the button (the machine's sent screen), not in a toast that vanishes
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Code sent to +4915112345678. It may take up to a minute to arrive.'));
    expect(document.querySelector('[data-screen="screen:2fa-code.sent"]')).not.toBeNull();
    expect(server.requests.filter((r) => r.path === '/api/2fa/sms/send')).toHaveLength(1);
  });

  it('offers no SMS button for the authenticator app', () => {
    wrap('GOOGLE');
    expect(screen.getByText('On — authenticator app')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send code by SMS' })).toBeNull();
  });
});

describe('language change: cached data refreshed in place', () => {
  it('keeps the data while refetching (no loading state, no remount)', async () => {
    const { refreshCachedData } = await import('../../src/lib/session');
    const queryClient = createQueryClient();
    let calls = 0;
    const observer = new QueryObserver(queryClient, { queryKey: ['account', 'user'], queryFn: async () => ({ locale: ++calls === 1 ? 'en' : 'de' }) });
    const seen: Array<string | undefined> = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data?.locale));
    await waitFor(() => expect(seen).toContain('en'));
    const refreshed = refreshCachedData(queryClient);
    expect(observer.getCurrentResult().data).toEqual({ locale: 'en' });
    await refreshed;
    expect(observer.getCurrentResult().data).toEqual({ locale: 'de' });
    // never back to undefined once loaded
    expect(seen.slice(seen.indexOf('en'))).not.toContain(undefined);
    unsubscribe();
  });
});
