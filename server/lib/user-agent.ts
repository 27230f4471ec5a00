/**
 * A small User-Agent reader for the sessions list and the new-device mail (issue 33): which browser, which system,
 * which kind of device. Local rules only (no lookups), the common browsers of the last years; anything else reads as
 * unknown (null), never as a wrong name. Browsers that build on Chromium name themselves before `Chrome/`, so they are
 * matched first. Versions are the major number only (Chrome's reduced User-Agent gives no more).
 */
export type DeviceType = 'desktop' | 'mobile' | 'tablet';

export interface UserAgentInfo {
  browser: string | null;
  browser_version: string | null;
  os: string | null;
  device_type: DeviceType;
}

/** In order: the first match names the browser; `v` is the pattern whose first group is the version. */
const BROWSERS: readonly { name: string; test: RegExp; v?: RegExp }[] = [
  { name: 'Edge', test: /\b(?:Edg|EdgA|EdgiOS|Edge)\//, v: /\b(?:Edg|EdgA|EdgiOS|Edge)\/(\d+)/ },
  { name: 'Opera', test: /\b(?:OPR|OPT|Opera)\//, v: /\b(?:OPR|OPT|Opera)\/(\d+)/ },
  { name: 'Samsung Internet', test: /\bSamsungBrowser\//, v: /\bSamsungBrowser\/(\d+)/ },
  { name: 'Vivaldi', test: /\bVivaldi\//, v: /\bVivaldi\/(\d+)/ },
  { name: 'Yandex Browser', test: /\bYaBrowser\//, v: /\bYaBrowser\/(\d+)/ },
  { name: 'Firefox', test: /\b(?:Firefox|FxiOS)\//, v: /\b(?:Firefox|FxiOS)\/(\d+)/ },
  { name: 'Chromium', test: /\bChromium\//, v: /\bChromium\/(\d+)/ },
  { name: 'Chrome', test: /\b(?:Chrome|HeadlessChrome|CriOS)\//, v: /\b(?:Chrome|HeadlessChrome|CriOS)\/(\d+)/ },
  { name: 'Safari', test: /\bVersion\/[\d.]+.*\bSafari\//, v: /\bVersion\/(\d+)/ },
];

function osOf(ua: string): string | null {
  if (/\bWindows (?:NT|Phone)\b/.test(ua)) return 'Windows';
  if (/\biPad\b/.test(ua)) return 'iPadOS';
  if (/\b(?:iPhone|iPod)\b/.test(ua)) return 'iOS';
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b|\bX11\b/.test(ua)) return 'Linux';
  return null;
}

function deviceTypeOf(ua: string, os: string | null): DeviceType {
  if (os === 'iPadOS' || /\bTablet\b/.test(ua) || (os === 'Android' && !/\bMobile\b/.test(ua))) return 'tablet';
  if (os === 'iOS' || /\bMobile\b/.test(ua) || /\bWindows Phone\b/.test(ua)) return 'mobile';
  return 'desktop';
}

/** What a User-Agent header says; all null (desktop) for a missing or unknown one. */
export function parseUserAgent(ua: string | null | undefined): UserAgentInfo {
  const s = (ua ?? '').slice(0, 500);
  const os = s ? osOf(s) : null;
  const hit = s ? BROWSERS.find((b) => b.test.test(s)) : undefined;
  return {
    browser: hit?.name ?? null,
    browser_version: (hit?.v && s.match(hit.v)?.[1]) || null,
    os,
    device_type: s ? deviceTypeOf(s, os) : 'desktop',
  };
}

/**
 * The User-Agent family the new-device rule compares: browser and system, without versions (an update of either is
 * the same device), e.g. `Firefox/Windows`; `unknown` for what is not recognised.
 */
export function userAgentFamily(ua: string | null | undefined): string {
  const { browser, os } = parseUserAgent(ua);
  return `${browser ?? 'unknown'}/${os ?? 'unknown'}`;
}
