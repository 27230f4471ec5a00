import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ChangePasswordSection } from '../../src/features/account/profile/change-password-section';
import { PasswordChecklist } from '../../src/features/account/form-kit';
import { activateLocale, i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';

function wrap(ui: React.ReactNode) {
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>
    </I18nProvider>,
  );
}

const state = (rule: string) => screen.getByTestId('password-checklist').querySelector(`[data-rule="${rule}"]`)?.getAttribute('data-ok');

describe('password checklist', () => {
  it('marks each rule of the policy live', () => {
    const { rerender } = wrap(<PasswordChecklist password="" />);
    expect(screen.getByText(/0 of 8 met|of 8 met/)).toBeInTheDocument();
    rerender(
      <I18nProvider i18n={i18n}>
        <PasswordChecklist password="aaaa" />
      </I18nProvider>,
    );
    expect(state('password_lowercase')).toBe('true');
    expect(state('password_uppercase')).toBe('false');
    expect(state('password_repeated')).toBe('false');
    rerender(
      <I18nProvider i18n={i18n}>
        <PasswordChecklist password="Valid-Passw0rd!" />
      </I18nProvider>,
    );
    const items = within(screen.getByTestId('password-checklist')).getAllByRole('listitem');
    expect(items.every((item) => item.getAttribute('data-ok') === 'true')).toBe(true);
    expect(screen.getByText('Password requirements (8 of 8 met)')).toBeInTheDocument();
  });

  it('is translated', async () => {
    await activateLocale('de');
    wrap(<PasswordChecklist password="" />);
    expect(screen.getByText('Mindestens 12 Zeichen')).toBeInTheDocument();
  });
});

describe('profile: change password', () => {
  it('updates the checklist while typing and blocks a weak or mismatching password', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    wrap(<ChangePasswordSection kind="user" />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^current password/i), 'Old-Passw0rd!!');
    await user.type(screen.getByLabelText(/^new password/i), 'short');
    expect(state('password_too_short')).toBe('false');
    expect(state('password_lowercase')).toBe('true');
    await user.type(screen.getByLabelText(/^confirm new password/i), 'other');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Must be at least 12 characters long')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
