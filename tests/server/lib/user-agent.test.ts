import { describe, expect, it } from 'vitest';
import { parseUserAgent, userAgentFamily } from '../../../server/lib/user-agent';

/** Real User-Agent strings of current browsers (and a few that must not be misread). */
const CASES: [string, { browser: string | null; browser_version: string | null; os: string | null; device_type: string }][] = [
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', { browser: 'Chrome', browser_version: '131', os: 'Windows', device_type: 'desktop' }],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', { browser: 'Edge', browser_version: '131', os: 'Windows', device_type: 'desktop' }],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', { browser: 'Safari', browser_version: '18', os: 'macOS', device_type: 'desktop' }],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', { browser: 'Firefox', browser_version: '133', os: 'Linux', device_type: 'desktop' }],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', { browser: 'Chrome', browser_version: '131', os: 'Linux', device_type: 'desktop' }],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', { browser: 'Safari', browser_version: '18', os: 'iOS', device_type: 'mobile' }],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1', { browser: 'Chrome', browser_version: '131', os: 'iOS', device_type: 'mobile' }],
  ['Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15', { browser: 'Firefox', browser_version: '133', os: 'iPadOS', device_type: 'tablet' }],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', { browser: 'Chrome', browser_version: '131', os: 'Android', device_type: 'mobile' }],
  ['Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', { browser: 'Chrome', browser_version: '131', os: 'Android', device_type: 'tablet' }],
  ['Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36', { browser: 'Samsung Internet', browser_version: '27', os: 'Android', device_type: 'mobile' }],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0', { browser: 'Opera', browser_version: '115', os: 'Windows', device_type: 'desktop' }],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', { browser: 'Chrome', browser_version: '131', os: 'ChromeOS', device_type: 'desktop' }],
  ['curl/8.5.0', { browser: null, browser_version: null, os: null, device_type: 'desktop' }],
  ['', { browser: null, browser_version: null, os: null, device_type: 'desktop' }],
];

describe('parseUserAgent', () => {
  it.each(CASES)('%s', (ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  it('reads a missing header as unknown', () => {
    expect(parseUserAgent(null)).toEqual({ browser: null, browser_version: null, os: null, device_type: 'desktop' });
  });

  it('the family ignores versions: an update is the same device, another browser or system is not', () => {
    const ff = (v: string) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v}) Gecko/20100101 Firefox/${v}`;
    expect(userAgentFamily(ff('133.0'))).toBe('Firefox/Windows');
    expect(userAgentFamily(ff('134.0'))).toBe(userAgentFamily(ff('133.0')));
    expect(userAgentFamily(CASES[0]![0])).toBe('Chrome/Windows');
    expect(userAgentFamily('curl/8.5.0')).toBe('unknown/unknown');
  });
});
