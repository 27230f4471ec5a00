import { I18nProvider } from '@lingui/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DateField } from '../../src/components/ui/date-field';
import { activateLocale, i18n } from '../../src/lib/i18n';

/**
 * Issue 14 (every screen in four languages): the dashboard's date filters showed the browser's mm/dd/yyyy on a German,
 * French or Italian page (a native date input follows the browser, not the page). The date field follows the UI
 * language in what it shows, its placeholder and its calendar, and still hands over `YYYY-MM-DD`.
 */
afterEach(async () => {
  await act(() => activateLocale('en'));
});

function Harness({ initial, changes }: { initial?: string; changes: (string | undefined)[] }) {
  const [value, setValue] = useState<string | undefined>(initial);
  return (
    <DateField
      label="From"
      value={value}
      onChange={(v) => {
        changes.push(v);
        setValue(v);
      }}
    />
  );
}

function renderField(initial?: string) {
  const changes: (string | undefined)[] = [];
  render(
    <I18nProvider i18n={i18n}>
      <Harness initial={initial} changes={changes} />
    </I18nProvider>,
  );
  return { changes, input: screen.getByRole('textbox', { name: 'From' }) as HTMLInputElement };
}

describe('date field in the reader language', () => {
  it('German: TT.MM.JJJJ, 23.11.2026, typed dates read the German way', { timeout: 30_000 }, async () => {
    await act(() => activateLocale('de'));
    const { changes, input } = renderField('2026-11-23');
    expect(input.placeholder).toBe('TT.MM.JJJJ');
    expect(input.value).toBe('23.11.2026');
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '01.02.2026{Enter}');
    await waitFor(() => expect(changes.at(-1)).toBe('2026-02-01'));
  });

  it('French and Italian: jj/mm/aaaa and gg/mm/aaaa, day first', { timeout: 30_000 }, async () => {
    await act(() => activateLocale('fr'));
    const fr = renderField('2026-11-23');
    expect(fr.input.placeholder).toBe('jj/mm/aaaa');
    expect(fr.input.value).toBe('23/11/2026');
    fr.input.remove();
    await act(() => activateLocale('it'));
    const { input } = renderField('2026-03-04');
    expect(input.placeholder).toBe('gg/mm/aaaa');
    expect(input.value).toBe('04/03/2026');
  });

  it('English keeps mm/dd/yyyy; the calendar opens from its labelled button and a picked day is YYYY-MM-DD', { timeout: 30_000 }, async () => {
    const { changes, input } = renderField('2026-11-23');
    expect(input.placeholder).toBe('mm/dd/yyyy');
    expect(input.value).toBe('11/23/2026');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open calendar' }));
    const day = await screen.findByRole('button', { name: /November 10, 2026/ });
    await user.click(day);
    await waitFor(() => expect(changes.at(-1)).toBe('2026-11-10'));
    expect(input.value).toBe('11/10/2026');
    // month view: the range text switches to the year's months; picking one shows its days
    await user.click(screen.getByRole('button', { name: 'Open calendar' }));
    await user.click(await screen.findByRole('button', { name: 'Choose a month' }));
    await user.click(await screen.findByText('Jan'));
    expect(await screen.findByRole('button', { name: /January 15, 2026/ })).toBeInTheDocument();
  });
});
