import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangePasswordSection } from '../../src/features/account/profile/change-password-section';
import { activateLocale, i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';

/** Issue 10 G: the common-password list is checked on the server only; the SPA shows its field error, localized. */
function wrap(ui: React.ReactNode) {
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>
    </I18nProvider>,
  );
}

const serverRefusal = () =>
  new Response(
    JSON.stringify({ error: { code: 'validation_failed', message: 'The given data was invalid', fields: { password: ['password_common'] }, field_messages: { password: ['x'] } } }),
    { status: 422, headers: { 'content-type': 'application/json' } },
  );

afterEach(async () => {
  vi.unstubAllGlobals();
  await activateLocale('en');
});

describe('server field error password_common', () => {
  for (const [lang, text] of [
    ['en', 'Is too common or appears in breached password lists; choose another one'],
    ['de', 'Ist zu verbreitet oder steht in Listen kompromittierter Passwörter; bitte wählen Sie ein anderes'],
  ] as const) {
    it(`is shown on the new-password field (${lang})`, { timeout: 30_000 }, async () => {
      await activateLocale(lang);
      const fetchMock = vi.fn(async () => serverRefusal());
      vi.stubGlobal('fetch', fetchMock);
      wrap(<ChangePasswordSection kind="user" />);
      const user = userEvent.setup();
      const inputs = screen.getAllByLabelText(/password|passwort/i).filter((el) => el.tagName === 'INPUT');
      await user.type(inputs[0] as HTMLElement, 'Old-Passw0rd!!');
      await user.type(inputs[1] as HTMLElement, 'Password123!');
      await user.type(inputs[2] as HTMLElement, 'Password123!');
      await user.click(screen.getByRole('button', { name: lang === 'en' ? 'Change password' : /passwort ändern/i }));
      expect(await screen.findByText(text, {}, { timeout: 10_000 })).toBeInTheDocument();
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });
  }
});
