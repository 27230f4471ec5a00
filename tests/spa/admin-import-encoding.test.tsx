import { render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportReportView } from '../../src/features/admin/users/import-users-dialog';
import { activateLocale, i18n } from '../../src/lib/i18n';
import type { CsvEncoding } from '../../contract/admin/import';

/** Issue 10 E: the import report tells which encoding the server read a non-UTF-8 file as. */
const base = { total: 2, created: 2, skipped: [], failed: [] };
const view = (encoding?: CsvEncoding) =>
  render(
    <I18nProvider i18n={i18n}>
      <ImportReportView report={{ ...base, ...(encoding ? { encoding } : {}) }} />
    </I18nProvider>,
  );

afterEach(() => activateLocale('en'));

describe('import report: encoding', () => {
  it('names a non-UTF-8 encoding, says nothing for UTF-8', async () => {
    const { unmount } = view('windows-1252');
    expect(screen.getByTestId('import-encoding')).toHaveTextContent('The file was read as windows-1252.');
    unmount();
    view('utf-8');
    expect(screen.queryByTestId('import-encoding')).not.toBeInTheDocument();
  });

  it('is translated', async () => {
    await activateLocale('fr');
    view('utf-16le');
    expect(screen.getByTestId('import-encoding')).toHaveTextContent(/utf-16le/);
    expect(screen.getByTestId('import-encoding')).not.toHaveTextContent('The file was read as');
  });
});
