import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { activateLocale } from '../../src/lib/i18n';
import { renderApp } from './render';

describe('not-found page', () => {
  it('shows the 404 texts for an unknown path', async () => {
    await renderApp('/this/does/not/exist');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText("The page you're looking for does not seem to exist")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('404 · IAM'));
  });

  it('renders the /404 route with the same page', async () => {
    await renderApp('/404');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('404 · IAM'));
  });

  it('shows Forbidden Access with 403 for paths containing 403', async () => {
    await renderApp('/some/403');
    expect(await screen.findByRole('heading', { level: 1, name: 'Forbidden Access' })).toBeInTheDocument();
    expect(screen.getByText('403')).toBeInTheDocument();
  });

  it('is translated', async () => {
    await activateLocale('de');
    await renderApp('/nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Seite nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toBeInTheDocument();
  });

  it('follows the matched route title', async () => {
    await renderApp('/login');
    // the sign-in screen swaps its card while the authorization starts (redirecting → its outcome): each has this h1
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument());
    await waitFor(() => expect(document.title).toBe('Sign in · IAM'));
  });
});
