/**
 * What people type into format-bound fields (issue 29): role/subscription names converted to UPPER_SNAKE, phone
 * numbers written with spaces accepted in E.164, and the redirect URI a service app's URL and Path make.
 */
import { describe, expect, it } from 'vitest';
import { ROLE_NAME_RE, serviceRedirectUri, SUBSCRIPTION_NAME_RE } from '../../contract/domain/formats';
import { serviceAppRedirects } from '../../server/oidc/adapter';
import { isPhoneOrEmpty, normalizePhone, PHONE_EXAMPLE } from '../../src/lib/phone';
import { finishUpperSnake, toUpperSnake } from '../../src/lib/upper-snake';

describe('toUpperSnake', () => {
  it.each([
    ['Editor', 'EDITOR'],
    ['content editor', 'CONTENT_EDITOR'],
    ['contentEditor', 'CONTENT_EDITOR'],
    ['app-admin', 'APP_ADMIN'],
    ['  Café  crème ', 'CAFE_CREME_'],
    ['Prüfer.Gruppe 2', 'PRUFER_GRUPPE_2'],
    ['__x__y', 'X_Y'],
    ['APP_', 'APP_'],
  ])('%j → %j', (typed, converted) => {
    expect(toUpperSnake(typed)).toBe(converted);
  });

  it('is stable: converting a converted value changes nothing (typing goes on from it)', () => {
    for (const value of ['EDITOR', 'CONTENT_EDITOR', 'APP_', 'A1_B2_C3']) expect(toUpperSnake(value)).toBe(value);
  });

  it('leaving the field drops a trailing underscore; the result meets the role rule', () => {
    expect(finishUpperSnake('content editor ')).toBe('CONTENT_EDITOR');
    expect(ROLE_NAME_RE.test(finishUpperSnake('content editor '))).toBe(true);
    expect(SUBSCRIPTION_NAME_RE.test(finishUpperSnake('acme pro eu'))).toBe(true);
    // one part stays refused: the error says why
    expect(ROLE_NAME_RE.test(finishUpperSnake('Editor'))).toBe(false);
  });
});

describe('phone numbers', () => {
  it('written with spaces, dots, hyphens or brackets: sent in E.164', () => {
    expect(normalizePhone(' +33 6 12 34 56 78 ')).toBe('+33612345678');
    expect(normalizePhone('+1 (555) 010-0199')).toBe('+15550100199');
    expect(normalizePhone('+41.79.123.45.67')).toBe('+41791234567');
    expect(isPhoneOrEmpty('+33 6 12 34 56 78')).toBe(true);
    expect(isPhoneOrEmpty(PHONE_EXAMPLE)).toBe(true);
    expect(isPhoneOrEmpty('')).toBe(true);
  });

  it('without the country code (or with letters): invalid, nothing guessed', () => {
    expect(isPhoneOrEmpty('06 12 34 56 78')).toBe(false);
    expect(isPhoneOrEmpty('+33 6 CALL ME')).toBe(false);
  });
});

describe('serviceRedirectUri', () => {
  it('URL (trailing slashes dropped) + Path, the same URI the provider registers', () => {
    expect(serviceRedirectUri('https://billing.example.com/', '/auth/callback')).toBe('https://billing.example.com/auth/callback');
    expect(serviceRedirectUri('https://billing.example.com', '/')).toBe('https://billing.example.com/');
    expect(serviceAppRedirects({ url: 'https://billing.example.com//', path: '/cb', redirect_uris: null, post_logout_redirect_uris: null }).redirect_uri).toBe(serviceRedirectUri('https://billing.example.com//', '/cb'));
  });
});
