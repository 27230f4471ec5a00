import { i18n } from '@lingui/core';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { languagesQueryOptions } from '../../src/api/account';
import { LanguagePicker } from '../../src/components/language-picker';
import { renderWithRouter } from './render';

function stubLanguages(response: () => Promise<Response>) {
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    if (String(input).endsWith('/api/languages')) return response();
    return Promise.reject(new Error(`unexpected fetch ${String(input)}`));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('language picker', () => {
  it('shows the active language in place of the select while its code loads (not in the first load)', async () => {
    stubLanguages(async () => Response.json({ data: { languages: ['en', 'de', 'fr', 'it'] } }));
    await renderWithRouter(() => <LanguagePicker />);
    // the select comes as its own chunk (React.lazy: suspends on its first render, so this test runs first in the
    // file): until it is there, an inert copy of its trigger names the language
    const placeholder = screen.getByTestId('language-picker-placeholder');
    expect(placeholder).toHaveTextContent('English');
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');
    expect(await screen.findByRole('combobox', { name: 'Language' })).toHaveTextContent('English');
    expect(screen.queryByTestId('language-picker-placeholder')).not.toBeInTheDocument();
  });

  it('activates the chosen language and stores it under `locale`', async () => {
    stubLanguages(async () => Response.json({ data: { languages: ['en', 'de', 'fr', 'it'] } }));
    const user = userEvent.setup();
    await renderWithRouter(() => <LanguagePicker />);

    await user.click(await screen.findByRole('combobox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'Deutsch' }));

    await waitFor(() => expect(i18n.locale).toBe('de'));
    expect(window.localStorage.getItem('locale')).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(await screen.findByRole('combobox', { name: 'Sprache' })).toBeInTheDocument();
  });

  it('offers the languages the server lists', async () => {
    stubLanguages(async () => Response.json({ data: { languages: ['en', 'fr'] } }));
    const user = userEvent.setup();
    await renderWithRouter(() => <LanguagePicker />);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await user.click(await screen.findByRole('combobox', { name: 'Language' }));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Deutsch' })).not.toBeInTheDocument());
    expect(screen.getByRole('option', { name: 'Français' })).toBeInTheDocument();
  });

  it('falls back to en, de, fr, it when the call fails', async () => {
    const fetchLanguages = () => new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery(languagesQueryOptions());
    const failed = stubLanguages(async () => new Response('nope', { status: 500 }));
    await expect(fetchLanguages()).resolves.toEqual(['en', 'de', 'fr', 'it']);
    expect(failed).toHaveBeenCalled();
    const unreachable = stubLanguages(() => Promise.reject(new TypeError('network')));
    await expect(fetchLanguages()).resolves.toEqual(['en', 'de', 'fr', 'it']);
    expect(unreachable).toHaveBeenCalled();
  });
});
