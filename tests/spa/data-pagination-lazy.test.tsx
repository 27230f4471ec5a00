/**
 * The dashboard's pagination, loaded on first render (src/components/ui/data-pagination-lazy.tsx, issue 15): the
 * summary shows at once, in the reader's language, then Ark's pagination (page buttons, labels, keyboard) takes the
 * placeholder's place and works.
 */
import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataPagination } from '../../src/components/ui/data-pagination-lazy';
import { activateLocale, i18n } from '../../src/lib/i18n';

function Harness({ total }: { total: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  return <DataPagination total={total} page={page} pageSize={pageSize} onPageChange={setPage} onPageSizeChange={setPageSize} />;
}

afterEach(async () => {
  await activateLocale('en');
});

describe('DataPagination loaded on first render', () => {
  it("first render: the placeholder with the same summary, in the reader's language; then Ark's pagination replaces it", async () => {
    await activateLocale('de');
    render(
      <I18nProvider i18n={i18n}>
        <Harness total={1234} />
      </I18nProvider>,
    );
    const placeholder = screen.getByTestId('pagination-placeholder');
    expect(placeholder.textContent).toContain('1 - 10 von 1.234 Einträgen');
    expect(placeholder.textContent).toContain('Einträge pro Seite');
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    await screen.findByRole('button', { name: 'Nächste Seite' });
    expect(screen.queryByTestId('pagination-placeholder')).toBeNull();
    expect(screen.getByText('1 - 10 von 1.234 Einträgen')).toBeTruthy();
  });
  it('then the real pagination (the module has loaded: no placeholder any more), whose buttons change the page', async () => {
    await activateLocale('en');
    render(
      <I18nProvider i18n={i18n}>
        <Harness total={42} />
      </I18nProvider>,
    );
    const next = await screen.findByRole('button', { name: 'Next page' });
    expect(screen.queryByTestId('pagination-placeholder')).toBeNull();
    expect(screen.getByText('1 - 10 of 42 items')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 5 of 5' })).toBeTruthy();
    fireEvent.click(next);
    expect(await screen.findByText('11 - 20 of 42 items')).toBeTruthy();
  });

});
