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
  skipped: [{ row: 3, email: 'taken@example.com', reason: 'exists' }],
  failed: [{ row: 2, email: 'bad', fields: { email: ['email'], locale: ['invalid'] } }],
};

/** The server's job shape (server/routes/admin/users-import.routes.ts). */
function job(patch: Record<string, unknown>) {
  return { id: 'job-1', status: 'running', dry_run: false, total: 4, processed: 0, created: 0, skipped: 0, failed: 0, report: null, error: null, created_at: '', updated_at: '', finished_at: null, ...patch };
}

describe('user import', () => {
  it('renders the per-row report of a dry run', async () => {
    await renderWithRouter(() => <ImportReportView report={report} dryRun />);
    const rows = screen.getAllByTestId('import-problem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('2');
    expect(rows[0]).toHaveTextContent('email: must be a valid email');
    expect(rows[0]).toHaveTextContent('locale: locale is invalid');
    expect(rows[1]).toHaveTextContent('taken@example.com');
    expect(rows[1]).toHaveTextContent('already exists');
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
    expect(posts[1]?.body).toContain('filename="users.csv"');
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
  });
});
