import { Trans } from '@lingui/react/macro';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '../../src/lib/i18n';
import { renderWithRouter } from './render';

/**
 * Issue 28 finding 5e: Lingui's Trans read markup inside the values it interpolated, so a person named
 * `<script>x</script>` was greeted as "x" and `<0>bold</0>` took the message's own element. Every <Trans> macro now
 * compiles to src/lib/safe-trans.tsx (lingui.config.ts runtimeConfigModule), which passes string values as text.
 */
afterEach(async () => {
  await activateLocale('en');
});

const HOSTILE = ['<script>x</script>', '<0>bold</0>', '<b>loud</b> & <i/>', '<1/>{name}'];

describe('user-supplied values are text, never message markup', () => {
  it.each(HOSTILE)('a greeting (the home screen\'s message) shows a first name of %s literally', { timeout: 60_000 }, async (first) => {
    const errors = vi.spyOn(console, 'error');
    await renderWithRouter(
      () => (
        <h1>
          <Trans>Welcome, {first}!</Trans>
        </h1>
      ),
      '/',
    );
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(`Welcome, ${first}!`);
    expect(document.querySelector('h1 script, h1 b, h1 i')).toBeNull();
    // Lingui's "element not declared" complaint is the sign it parsed the value
    expect(errors.mock.calls.filter((c) => String(c[0]).includes('not declared in the original translation'))).toEqual([]);
    errors.mockRestore();
  });

  it('a message with its own elements keeps them, and a value imitating one of them stays text', { timeout: 60_000 }, async () => {
    const name = '<0>bold</0>';
    await renderWithRouter(
      () => (
        <p data-testid="msg">
          <Trans>
            Delete <strong>{name}</strong> and <em>{name}</em>?
          </Trans>
        </p>
      ),
      '/',
    );
    const p = await screen.findByTestId('msg');
    expect(p.textContent).toBe('Delete <0>bold</0> and <0>bold</0>?');
    expect(p.querySelectorAll('strong')).toHaveLength(1);
    expect(p.querySelector('strong')!.textContent).toBe(name);
    expect(p.querySelector('em')!.textContent).toBe(name);
  });
});
