import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportReportView, ImportUsersDialog } from '../../src/features/admin/users/import-users-dialog';
import { activateLocale } from '../../src/lib/i18n';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const report = {
  total: 4,
  created: 0,
  skipped: [{ row: 3, email: 'taken@example.com', reason: 'email_taken' as const }],
  failed: [{ row: 2, email: 'bad', fields: { email: ['email'], locale: ['invalid'] } }],
};

/** The server's job shape (server/routes/admin/users-import.routes.ts). */
function job(patch: Record<string, unknown>) {
  return { id: 'job-1', status: 'running', dry_run: false, total: 4, processed: 0, created: 0, skipped: 0, failed: 0, report: null, error: null, created_at: '', updated_at: '', finished_at: null, ...patch };
}

describe('user import report wording (issue 29)', () => {
  it('French: one skipped row reads "Ignorée" (ICU plural), several "Ignorées"', async () => {
    await activateLocale('fr');
    try {
      const one = { total: 1, created: 0, skipped: [{ row: 2, email: 'taken@example.com', reason: 'email_taken' as const }], failed: [] };
      const view = await renderWithRouter(() => <ImportReportView report={one} />);
      const [row] = screen.getAllByTestId('import-problem');
      expect(within(row!).getAllByRole('cell')[2]).toHaveTextContent(/^Ignorée$/);
      expect(screen.getByTestId('import-report')).toHaveTextContent('Ignorée1');
      view.unmount();
      const two = { ...one, total: 2, skipped: [...one.skipped, { row: 3, email: 'other@example.com', reason: 'duplicate_in_file' as const }] };
      await renderWithRouter(() => <ImportReportView report={two} />);
      expect(screen.getByTestId('import-report')).toHaveTextContent('Ignorées2');
    } finally {
      await activateLocale('en');
    }
  });
});

describe('user import', () => {
  it('renders the per-row report of a dry run', async () => {
    await renderWithRouter(() => <ImportReportView report={report} dryRun />);
    const rows = screen.getAllByTestId('import-problem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('2');
    // the bad row's e-mail as written, and each field named once (issue 14: '—' and 'locale: locale is invalid' before)
    expect(within(rows[0]!).getAllByRole('cell')[1]).toHaveTextContent(/^bad$/);
    expect(rows[0]).toHaveTextContent('email: must be a valid email');
    expect(rows[0]).toHaveTextContent('locale is invalid');
    expect(rows[0]).not.toHaveTextContent('locale: locale');
    expect(rows[1]).toHaveTextContent('taken@example.com');
    expect(rows[1]).toHaveTextContent('Already exists');
    // a row's problems one per line, not run together (issue 29)
    expect(within(rows[0]!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['email: must be a valid email', 'locale is invalid']);
    // one skipped row: the singular
    expect(screen.getByText('2 rows with problems')).toBeInTheDocument();
  });

  it("shows a row's server field codes through the field messages, in the reader's language", async () => {
    const rowErrors = {
      total: 3,
      created: 0,
      skipped: [],
      failed: [
        { row: 2, fields: { provider: ['provider_required'] } },
        { row: 3, fields: { provider: ['provider_unknown'] } },
      ],
    };
    const view = await renderWithRouter(() => <ImportReportView report={rowErrors} dryRun />);
    let rows = screen.getAllByTestId('import-problem');
    expect(rows[0]).toHaveTextContent('provider: A single sign-on provider is required');
    expect(rows[1]).toHaveTextContent('provider: Unknown single sign-on provider');
    view.unmount();
    await activateLocale('de');
    try {
      await renderWithRouter(() => <ImportReportView report={rowErrors} dryRun />);
      rows = screen.getAllByTestId('import-problem');
      expect(rows[0]).toHaveTextContent('provider: Ein Single-Sign-On-Anbieter ist erforderlich');
      expect(rows[1]).toHaveTextContent('provider: Unbekannter Single-Sign-On-Anbieter');
    } finally {
      await activateLocale('en');
    }
  });

  it('checks the file (dry run), imports, polls the job and reports success', async () => {
    let polls = 0;
    server = await startAdminServer((req) => {
      if (req.method === 'POST' && req.path === '/api/admin/users/import') {
        if (req.body.includes('name="dry_run"\r\n\r\ntrue')) return { body: { data: { ...report, dry_run: true } } };
        return { status: 202, body: { data: { job_id: 'job-1' } } };
      }
      if (req.path === '/api/admin/users/import/job-1') {
        polls += 1;
        return polls < 2
          ? { body: { data: job({ processed: 1, status: 'running' }) } }
          : { body: { data: job({ processed: 4, created: 2, status: 'done', report: { ...report, created: 2, dry_run: false, invitations_queued: 2 } }) } };
      }
      return undefined;
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <ImportUsersDialog open onOpenChange={() => {}} />, '/admin/user-management');
    const file = new File(['email,first_name,last_name,locale\na@example.com,A,B,en\n'], 'users.csv', { type: 'text/csv' });
    await user.upload(await screen.findByTestId('import-file'), file);
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    const dry = await screen.findByTestId('import-report');
    expect(within(dry).getAllByTestId('import-problem')).toHaveLength(2);
    expect(dry).toHaveTextContent('Ready to import');

    await user.click(screen.getByRole('button', { name: 'Import users' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Users imported'), { timeout: 5000 });
    expect(screen.getByTestId('import-report')).toHaveTextContent('Created');
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body).toContain('name="send_invitations"\r\n\r\ntrue');
    expect(posts[1]?.body).toContain('name="async"\r\n\r\ntrue');
    expect(posts[1]?.body).toContain('filename="users.csv"');
    expect(document.querySelector('[data-screen]')).toHaveAttribute('data-screen', 'screen:import.done');
  });

  it("a file without the email column says so ('Users import failed: The file has no “email” column'), not 'try again'", async () => {
    server = await startAdminServer((req) =>
      req.path === '/api/admin/users/import'
        ? { status: 422, body: { error: { code: 'users_import_failed', message: 'Users import failed', fields: { 'columns.email': ['required'] } } } }
        : undefined,
    );
    const user = userEvent.setup();
    await renderWithRouter(() => <ImportUsersDialog open onOpenChange={() => {}} />, '/admin/user-management');
    await user.upload(await screen.findByTestId('import-file'), new File(['first_name\nA\n'], 'u.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    const alert = await screen.findByTestId('import-file-error');
    expect(alert).toHaveTextContent('Users import failed: The file has no “email” column');
    expect(alert).not.toHaveTextContent(/try again/i);
    expect(screen.getByTestId('import-file')).toHaveAttribute('aria-invalid', 'true');
    expect(document.querySelector('[data-screen]')).toHaveAttribute('data-screen', 'screen:import.pick');
  });

  it('cancelling a running import stops the job: the dialog says what was created before', async () => {
    let cancelled = false;
    server = await startAdminServer((req) => {
      if (req.method === 'POST' && req.path === '/api/admin/users/import') {
        if (req.body.includes('name="dry_run"\r\n\r\ntrue')) return { body: { data: { ...report, created: 1, dry_run: true, skipped_count: 1, failed_count: 1, invitations_queued: 0 } } };
        return { status: 202, body: { data: { job_id: 'job-1', total: 4, status: 'running' } } };
      }
      if (req.method === 'POST' && req.path === '/api/admin/users/import/job-1/cancel') {
        cancelled = true;
        return { body: { data: job({ status: 'failed', processed: 2, created: 1, error: { code: 'import_cancelled', message: 'cancelled' } }) } };
      }
      if (req.path === '/api/admin/users/import/job-1') return { body: { data: cancelled ? job({ status: 'failed', processed: 2, created: 1, error: { code: 'import_cancelled', message: 'x' } }) : job({ processed: 1, created: 1 }) } };
      return undefined;
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <ImportUsersDialog open onOpenChange={() => {}} />, '/admin/user-management');
    await user.upload(await screen.findByTestId('import-file'), new File(['email\na@example.com\n'], 'u.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    await user.click(await screen.findByRole('button', { name: 'Import users' }));
    await waitFor(() => expect(screen.getByTestId('import-progress')).toHaveTextContent('1 of 4'), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Cancel import' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Import cancelled. 1 user was created before it stopped.');
    expect(document.querySelector('[data-screen]')).toHaveAttribute('data-screen', 'screen:import.cancelled');
  });

  it("'Try again' is offered only when trying again can help: not for a file too large, yes when the server was not reached", async () => {
    let answer: 'too_large' | 'network' = 'too_large';
    server = await startAdminServer((req) => {
      if (req.path !== '/api/admin/users/import') return undefined;
      if (req.body.includes('name="dry_run"\r\n\r\ntrue')) return { body: { data: { total: 1, created: 1, skipped: [], failed: [], skipped_count: 0, failed_count: 0, dry_run: true, invitations_queued: 0 } } };
      return answer === 'too_large' ? { status: 413, body: { error: { code: 'payload_too_large', message: 'too large' } } } : { status: 503, body: { error: { code: 'service_unavailable', message: 'busy' } } };
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <ImportUsersDialog open onOpenChange={() => {}} />, '/admin/user-management');
    await user.upload(await screen.findByTestId('import-file'), new File(['email\na@example.com\n'], 'u.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    await user.click(await screen.findByRole('button', { name: 'Import users' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Users import failed: The file is too large');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    answer = 'network';
    await user.upload(screen.getByTestId('import-file'), new File(['email\nb@example.com\n'], 'v.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    await user.click(await screen.findByRole('button', { name: 'Import users' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The service is busy; please try again shortly');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("says 'Importazione utenti fallita' when the import request fails (it)", async () => {
    await activateLocale('it');
    server = await startAdminServer((req) => {
      if (req.path === '/api/admin/users/import') {
        if (req.body.includes('name="dry_run"\r\n\r\ntrue')) return { body: { data: { total: 1, created: 0, skipped: [], failed: [] } } };
        return { status: 500, body: { error: { code: 'internal', message: 'boom' } } };
      }
      return undefined;
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <ImportUsersDialog open onOpenChange={() => {}} />, '/admin/user-management');
    await user.upload(await screen.findByTestId('import-file'), new File(['email\na@example.com\n'], 'u.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Verifica file' }));
    await user.click(await screen.findByRole('button', { name: 'Importa utenti' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Importazione utenti fallita');
    expect(screen.getByRole('button', { name: 'Riprova' })).toBeInTheDocument();
  });
});

describe('file size in the picker (issue 29: a 31-byte file showed "1 KB")', () => {
  it('Intl units in the reader\'s language', async () => {
    const { renderHook } = await import('@testing-library/react');
    const { I18nProvider } = await import('@lingui/react');
    const { i18n } = await import('@lingui/core');
    const { useFormat } = await import('../../src/features/admin/components/format');
    const { result } = renderHook(() => useFormat(), { wrapper: ({ children }) => <I18nProvider i18n={i18n}>{children}</I18nProvider> });
    expect(result.current.fileSize(31)).toBe('31 bytes');
    expect(result.current.fileSize(1)).toBe('1 byte');
    expect(result.current.fileSize(1536)).toBe('1.5 kB');
    expect(result.current.fileSize(2_300_000)).toBe('2.3 MB');
  });
});
