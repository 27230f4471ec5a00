/**
 * Issue 14 (layout at every width): the parts testable without a browser's layout. The rest (overflow, clipping,
 * the drawer at 390 px, full-height sidebar, cards) is in e2e/screens.spec.ts.
 */
import { I18nProvider } from '@lingui/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SignInChart, yAxis } from '../../src/features/admin/dashboard/sign-in-chart';
import { AdminShell } from '../../src/features/admin/shell/admin-shell';
import { i18n } from '../../src/lib/i18n';
import { renderWithRouter } from './render';

function days(counts: number[]) {
  return counts.map((count, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, count }));
}

describe('sign-ins chart y axis', () => {
  it('has whole-number ticks only, the top one at or above the peak', () => {
    for (let peak = 0; peak <= 250; peak++) {
      const { max, ticks } = yAxis(peak);
      expect(ticks.every((tick) => Number.isInteger(tick)), `peak ${peak}: ${ticks.join(', ')}`).toBe(true);
      expect(max).toBeGreaterThanOrEqual(peak);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks[ticks.length - 1]).toBe(max);
    }
  });

  it('labels no fractional sign-ins (a peak of 6 used to give 1.5 and 4.5)', () => {
    const { container } = render(
      <I18nProvider i18n={i18n}>
        <SignInChart data={days([0, 6, 3, 1])} />
      </I18nProvider>,
    );
    const labels = Array.from(container.querySelectorAll('svg g[aria-hidden="true"] text')).map((t) => t.textContent);
    expect(labels).toEqual(['0', '2', '4', '6']);
  });
});

describe('admin shell on a phone', () => {
  function phone(matches: boolean) {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: matches && query.includes('max-width: 767px'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
  }

  it('opens the navigation in a drawer from the menu button and closes it on a choice', async () => {
    phone(true);
    const user = userEvent.setup();
    await renderWithRouter(() => <AdminShell>content</AdminShell>);
    const open = screen.getByRole('button', { name: 'Open navigation' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const drawer = await screen.findByRole('dialog', { name: 'Admin panel' });
    expect(within(drawer).getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Close navigation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(open).toHaveAttribute('aria-expanded', 'false');
  });

  it('has no drawer on a wide screen', async () => {
    phone(false);
    await renderWithRouter(() => <AdminShell>content</AdminShell>);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.getElementById('admin-sidebar')).toBeInTheDocument();
  });
});
