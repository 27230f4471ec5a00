/**
 * Issue 29, keyboard and screen-reader users: after a page change or a swap in place, focus is on the new page's
 * heading (or the new step) instead of the page's body, the change is announced, and the document's title names the
 * screen and the product (src/lib/focus-after-swap.tsx, src/components/route-announcer.tsx).
 */
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { loginMachine, type LoginResult, type NewPasswordInput, type ResendInput, type SecondFactorResult, type StartAuthorizationInput } from '../../machines/login.machine';
import { twoFactorSetupMachine, type SecretOutput } from '../../machines/twoFactorSetup.machine';
import { RouteAnnouncer } from '../../src/components/route-announcer';
import { LoginScreen } from '../../src/features/account/login/login-screen';
import { TwoFactorSection } from '../../src/features/account/profile/two-factor-section';
import { ImportUsersDialog } from '../../src/features/admin/users/import-users-dialog';
import { focusWhenReady, useSwapFocus } from '../../src/lib/focus-after-swap';
import { i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Two pages; the second shows its h1 only once its "data" is there (a lazy page, a query). */
async function renderTwoPages() {
  let reveal: () => void = () => undefined;
  const root = createRootRoute({
    component: () => (
      <>
        <RouteAnnouncer />
        <nav>
          {/* a test route outside the app's route tree: a plain link the router handles */}
          <a
            href="/b"
            onClick={(event) => {
              event.preventDefault();
              void router.navigate({ href: '/b' });
            }}
          >
            to b
          </a>
        </nav>
        <main>
          <Outlet />
        </main>
      </>
    ),
  });
  const a = createRoute({ getParentRoute: () => root, path: '/', staticData: { title: 'Page A' }, component: () => <h1>Page A</h1> });
  function PageB() {
    const [ready, setReady] = useState(false);
    useEffect(() => {
      reveal = () => setReady(true);
    }, []);
    return ready ? <h1>Page B</h1> : <p>Loading…</p>;
  }
  const b = createRoute({ getParentRoute: () => root, path: '/b', staticData: { title: 'Page B' }, component: PageB });
  const router = createRouter({ routeTree: root.addChildren([a, b]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await router.load();
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  return { router, reveal: () => act(() => reveal()) };
}

describe('route changes', () => {
  it('the first page keeps the browser’s start (no focus moved); a new page’s h1 takes focus when it appears, announced, titled with the product', async () => {
    const view = await renderTwoPages();
    expect(await screen.findByRole('heading', { level: 1, name: 'Page A' })).not.toHaveFocus();
    await waitFor(() => expect(document.title).toBe('Page A · IAM'));
    const user = userEvent.setup();
    screen.getByRole('link', { name: 'to b' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByText('Loading…');
    // the page is still loading: focus waits for its heading
    expect(screen.getByRole('link', { name: 'to b' })).toHaveFocus();
    await view.reveal();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Page B' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute('tabindex', '-1');
    await waitFor(() => expect(screen.getByTestId('route-announcer')).toHaveTextContent('Page B'));
    expect(document.title).toBe('Page B · IAM');
  });

  it('a person who acts before the new page’s heading is there keeps their place', async () => {
    document.body.innerHTML = '<main><button>elsewhere</button></main>';
    const cancel = focusWhenReady({ selector: 'h1' });
    const elsewhere = screen.getByRole('button', { name: 'elsewhere' });
    await userEvent.setup().click(elsewhere);
    const heading = document.createElement('h1');
    heading.textContent = 'Late';
    document.querySelector('main')!.append(heading);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heading).not.toHaveFocus();
    cancel();
    document.body.innerHTML = '';
  });
});

describe('swaps in place (useSwapFocus)', () => {
  function Steps() {
    const [step, setStep] = useState(1);
    const { liveRegion } = useSwapFocus(`step-${step}`);
    return (
      <main>
        {liveRegion}
        {step === 1 ? (
          <button type="button" onClick={() => setStep(2)}>
            Next
          </button>
        ) : (
          <p data-swap-focus="">Step two: check the numbers</p>
        )}
      </main>
    );
  }

  it('focuses the marked part of the new step (tabindex -1) and announces it; not on the first render', async () => {
    render(<Steps />);
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).not.toHaveFocus();
    next.focus();
    await userEvent.setup().keyboard('{Enter}');
    const step = screen.getByText('Step two: check the numbers');
    await waitFor(() => expect(step).toHaveFocus());
    expect(step).toHaveAttribute('tabindex', '-1');
    await waitFor(() => expect(screen.getByTestId('swap-announcer')).toHaveTextContent('Step two: check the numbers'));
  });
});

function fakeLogin(login: () => Promise<LoginResult>) {
  const complete = async (): Promise<SecondFactorResult> => ({ status: 'complete', redirect_to: '/oidc/done' });
  return loginMachine.provide({
    actors: {
      startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => {}),
      submitCredentials: fromPromise(() => login()),
      verifyOtp: fromPromise(complete),
      verifySmsCode: fromPromise(complete),
      resendSmsCode: fromPromise<void, ResendInput>(async () => {}),
      verifyRecoveryCode: fromPromise(complete),
      changeExpiredPassword: fromPromise<void, NewPasswordInput>(async () => {}),
    },
    actions: { redirect: () => undefined, navigate: () => undefined },
  });
}

describe('sign-in: password → two-factor step', () => {
  it('moves focus to the new step’s heading, announces it and titles the document with it; back and forth to the recovery code too', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
    const machine = fakeLogin(async () => ({ status: 'two_factor_required', method: 'GOOGLE' }));
    await renderWithRouter(
      () => (
        <>
          <RouteAnnouncer />
          <main>
            <LoginScreen admin={false} search={{ interaction: 'uid-1' }} loginMachineOverride={machine} />
          </main>
        </>
      ),
      '/login?interaction=uid-1',
    );
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /e-mail/i }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^password/i), 'Secret-Passw0rd!');
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' });
    await waitFor(() => expect(heading).toHaveFocus());
    await waitFor(() => expect(screen.getByTestId('swap-announcer')).toHaveTextContent('Two-factor verification'));
    await waitFor(() => expect(document.title).toBe('Two-factor verification · IAM'));

    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveFocus();
    screen.getByRole('button', { name: 'Use a recovery code' }).focus();
    await user.keyboard('{Enter}');
    const recovery = await screen.findByRole('heading', { level: 1, name: 'Use a recovery code' });
    await waitFor(() => expect(recovery).toHaveFocus());
    await waitFor(() => expect(document.title).toBe('Use a recovery code · IAM'));
  });
});

describe('two-factor set-up (profile)', () => {
  it('“Set up authenticator app” → focus on the steps; “Turn on” → focus on the saved-codes notice; each announced', async () => {
    const machine = twoFactorSetupMachine.provide({
      actors: {
        createSecret: fromPromise<SecretOutput, void>(async () => ({ secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/IAM:a@example.com?secret=JBSWY3DPEHPK3PXP' })),
        enableAuthenticator: fromPromise<{ recovery_codes: string[] }, { one_time_password: string }>(async () => ({ recovery_codes: ['aaaa-bbbb', 'cccc-dddd'] })),
      },
    });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={createQueryClient()}>
          <TwoFactorSection kind="user" phone={null} status={{ enabled: false, method: null }} machineOverride={machine} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Set up authenticator app' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByTestId('totp-secret');
    const steps = document.querySelector<HTMLElement>('ol[data-swap-focus]')!;
    expect(steps).toHaveTextContent(/Scan the QR code/);
    await waitFor(() => expect(steps).toHaveFocus());
    await waitFor(() => expect(screen.getByTestId('swap-announcer')).toHaveTextContent(/Scan the QR code/));

    const group = screen.getByRole('group', { name: 'Code from the app' });
    screen.getByRole('textbox', { name: 'Digit 1 of 6' }).focus();
    await user.keyboard('123456');
    expect(group).toBeInTheDocument();
    screen.getByRole('button', { name: 'Turn on' }).focus();
    await user.keyboard('{Enter}');
    const codes = await screen.findByTestId('recovery-codes');
    expect(codes).toHaveTextContent('aaaa-bbbb');
    const notice = document.querySelector<HTMLElement>('[data-swap-focus]')!;
    expect(notice).toHaveTextContent(/Save these recovery codes now/);
    await waitFor(() => expect(notice).toHaveFocus());
    await waitFor(() => expect(screen.getByTestId('swap-announcer')).toHaveTextContent(/Two-factor authentication is on/));
  });
});

describe('two-factor section remounted by the profile (its key follows the account’s data)', () => {
  const machine = twoFactorSetupMachine.provide({});
  function Profile({ version, enabled }: { version: number; enabled: boolean }) {
    return (
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={createQueryClient()}>
          <button type="button">elsewhere</button>
          <TwoFactorSection key={version} kind="user" phone={null} status={{ enabled, method: enabled ? 'GOOGLE' : null }} machineOverride={machine} />
        </QueryClientProvider>
      </I18nProvider>
    );
  }

  it('focus inside the section as it is replaced (“I have saved my codes”, then the refetch) goes to the new one’s target, not the body', async () => {
    const view = render(<Profile version={1} enabled={false} />);
    screen.getByRole('button', { name: 'Set up authenticator app' }).focus();
    view.rerender(<Profile version={2} enabled />);
    const state = await screen.findByText('On — authenticator app');
    await waitFor(() => expect(state).toHaveFocus());
  });

  it('focus elsewhere stays where it is', async () => {
    const view = render(<Profile version={1} enabled={false} />);
    const elsewhere = screen.getByRole('button', { name: 'elsewhere' });
    elsewhere.focus();
    view.rerender(<Profile version={2} enabled />);
    await screen.findByText('On — authenticator app');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(elsewhere).toHaveFocus();
  });
});

describe('import dialog: “Check file”', () => {
  it('focuses the check results and announces their summary from a live region inside the dialog', async () => {
    const report = { total: 4, created: 0, skipped: [{ row: 3, email: 'taken@example.com', reason: 'exists' }], failed: [{ row: 2, email: 'bad', fields: { email: ['email'] } }] };
    server = await startAdminServer((req) => (req.method === 'POST' && req.path === '/api/admin/users/import' ? { body: { data: { ...report, dry_run: true } } } : undefined));
    const user = userEvent.setup();
    await renderWithRouter(() => <ImportUsersDialog open onOpenChange={() => {}} />, '/admin/user-management');
    const input = await screen.findByTestId('import-file');
    expect(input).toHaveAccessibleName('Choose a CSV file');
    await user.upload(input, new File(['email\na@example.com\n'], 'users.csv', { type: 'text/csv' }));
    // the control keeps its purpose once a file is chosen; the file is its description
    expect(input).toHaveAccessibleName('Choose another CSV file');
    expect(input).toHaveAccessibleDescription(/users\.csv/);
    screen.getByRole('button', { name: 'Check file' }).focus();
    await user.keyboard('{Enter}');
    const results = await screen.findByTestId('import-report');
    await waitFor(() => expect(results.closest('[data-swap-focus]')).toHaveFocus());
    const announcer = screen.getByTestId('swap-announcer');
    expect(screen.getByRole('dialog')).toContainElement(announcer);
    await waitFor(() => expect(announcer).toHaveTextContent('File checked. Rows: 4. Ready to import: 2. Skipped: 1. With errors: 1.'));
  });
});
