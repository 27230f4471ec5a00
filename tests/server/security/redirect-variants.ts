import fc from 'fast-check';

/**
 * Deterministic generator of redirect-URI look-alikes: hand-written mutators (encodings, dot segments,
 * userinfo, case, trailing slash, fragment, query, ports, unicode, schemes, hosts, whitespace) composed
 * 1–3 at a time by fast-check with a fixed seed. Every variant is a string an attacker could send as
 * `redirect_uri` / `post_logout_redirect_uri`; only a byte-identical one may be accepted.
 */
type Mutator = (uri: string, n: number) => string;

const pick = <T>(xs: readonly T[], n: number): T => xs[Math.abs(n) % xs.length] as T;
const hex = (c: string, upper: boolean) =>
  [...Buffer.from(c, 'utf8')].map((b) => `%${upper ? b.toString(16).toUpperCase().padStart(2, '0') : b.toString(16).padStart(2, '0')}`).join('');

/** Splits an absolute URI string loosely (works on already mutated strings too). */
function parts(uri: string): { scheme: string; authority: string; rest: string } {
  const m = /^([^:/?#]*:)?(\/\/[^/?#]*)?(.*)$/s.exec(uri);
  return { scheme: m?.[1] ?? '', authority: m?.[2] ?? '', rest: m?.[3] ?? '' };
}
const join = (p: { scheme: string; authority: string; rest: string }) => `${p.scheme}${p.authority}${p.rest}`;
const hostOf = (authority: string) => authority.replace(/^\/\//, '').replace(/^[^@]*@/, '').replace(/:\d*$/, '');
const portOf = (authority: string) => /:(\d*)$/.exec(authority.replace(/^\/\//, '').replace(/^[^@]*@/, ''))?.[1];

const SUFFIXES = [
  '/', '//', '/.', '/..', '/./', '/../', '?', '#', '#x', '#/evil', '?a=1', '?next=https://evil.example/', '&a=1', ';', ';jsessionid=1', '%20', '%00', '%0d%0a', '%0aLocation:%20https://evil.example',
  '\u0000', ' ', '\t', '\n', '\r\n', '.', '..', 'x', '1', '/evil', '.evil.example', '%23', '%3F', '%3f', '@evil.example', '\\', '%2f', '%2F', '%5c', '%2e', '%2e%2e', '/%2e%2e/',
  '/;', '/?', '/#', '?#', '#?', '%', '%2', '%zz', '\u200b', '\ufeff', '\u202e', '\u00a0', '/\u2215evil', 'ǀ', '\u0301', '::', '?redirect_uri=https://evil.example', '#@evil.example',
] as const;
const PREFIXES = [' ', '\t', '\n', '\u200b', '\ufeff', '\u00a0', 'x', '/', '\\', '%20', 'javascript:', 'data:text/html,', '\u0000'] as const;
const SCHEMES = ['http:', 'https:', 'HTTP:', 'HTTPS:', 'Http:', 'hTtPs:', 'javascript:', 'data:', 'ws:', 'wss:', 'file:', 'ftp:', 'http+unix:', 'https :', 'ht\ttp:', '', 'blob:http:', 'view-source:'] as const;
const EVIL_HOSTS = [
  'evil.example', '127.0.0.1', '[::1]', '0x7f000001', '2130706433', '0177.0.0.1', '127.1', '0.0.0.0', '[::ffff:127.0.0.1]', 'localhost', 'LOCALHOST', 'localhost.', 'crm.example.com.', 'CRM.EXAMPLE.COM',
  'xn--crm-example-com', 'xn--lcalhost-r1e', 'evil.example%2f', 'evil.example\\', 'evil.example#', 'evil.example?', '%6cocalhost', 'l%6fcalhost', 'ｌｏｃａｌｈｏｓｔ', 'crm․example․com', 'crm｡example｡com',
] as const;
const USERINFOS = ['user@', 'user:pass@', ':@', '@', 'evil.example@', 'evil.example:80@', '%40@', 'localhost:3000@', 'crm.example.com@', 'a%40evil.example@', 'user%3Apass@'] as const;
const PORTS = ['', ':', ':80', ':443', ':3000', ':03000', ':3001', ':8443', ':08443', ':0', ':65535', ':65536', ':99999', ':+3000', ':3000.', ':3 000', ':80:3000'] as const;
const DOT_SEGMENTS = ['/./', '/x/../', '/%2e/', '/%2E%2E/x/', '/.%2e/', '/%2e%2e%2f', '/./././', '/..;/', '/.;/', '//', '/\\', '/%5c', '/%09/', '/.\u200b/', '/。/'] as const;
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u202e', '\u202d', '\u180e', '\u034f'] as const;
/** NFKC/confusable look-alikes of ASCII characters that appear in URLs. */
const HOMOGLYPHS: Record<string, readonly string[]> = {
  '/': ['\uff0f', '\u2215', '\u2044', '\u29f8', '\u0338'],
  '.': ['\uff0e', '\u3002', '\u2024', '\u00b7', '\ufe52'],
  ':': ['\uff1a', '\u02d0', '\ua789', '\u2236'],
  a: ['\u0430', '\uff41', '\u00e0', '\u0251'],
  c: ['\u0441', '\uff43', '\u217d'],
  e: ['\u0435', '\uff45', '\u00e9'],
  h: ['\u04bb', '\uff48'],
  i: ['\u0456', '\uff49', '\u0131', '\u2170'],
  l: ['\u04cf', '\uff4c', '\u217c', '\u0049', '\u006c\u0307', '\u2113'],
  m: ['\u217f', '\uff4d'],
  n: ['\u0578', '\uff4e'],
  o: ['\u043e', '\uff4f', '\u03bf', '\u00f6', '\u0030'],
  p: ['\u0440', '\uff50'],
  r: ['\u0433', '\uff52'],
  s: ['\u0455', '\uff53', '\u017f'],
  t: ['\uff54', '\u0442'],
  k: ['\u212a', '\uff4b'],
  0: ['\uff10', '\u06f0'],
  3: ['\uff13', '\u0417'],
};

/** Every mutator takes the current string and an integer that picks where/what. */
export const MUTATORS: Record<string, Mutator> = {
  flipCase: (u, n) => {
    const idx = [...u].flatMap((c, i) => (c.toLowerCase() !== c.toUpperCase() ? [i] : []));
    if (!idx.length) return u.toUpperCase();
    const i = pick(idx, n);
    const c = u[i] as string;
    return u.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + u.slice(i + 1);
  },
  upperAll: (u, n) => {
    const p = parts(u);
    return n % 3 === 0 ? u.toUpperCase() : n % 3 === 1 ? join({ ...p, authority: p.authority.toUpperCase() }) : join({ ...p, rest: p.rest.toUpperCase() });
  },
  percentEncodeChar: (u, n) => {
    const i = Math.abs(n) % u.length;
    return u.slice(0, i) + hex(u[i] as string, n % 2 === 0) + u.slice(i + 1);
  },
  percentEncodePath: (u, n) => {
    const p = parts(u);
    return join({ ...p, rest: p.rest.replace(/[A-Za-z/.]/g, (c) => (c === '/' && n % 2 ? c : hex(c, n % 3 === 0))) });
  },
  doubleEncode: (u, n) => {
    const i = Math.abs(n) % u.length;
    return u.slice(0, i) + hex(u[i] as string, true).replace(/%/g, '%25') + u.slice(i + 1);
  },
  decodeOnce: (u) => {
    try {
      return decodeURIComponent(u);
    } catch {
      return `${u}%`;
    }
  },
  dotSegment: (u, n) => {
    const p = parts(u);
    const slashes = [...p.rest].flatMap((c, i) => (c === '/' ? [i] : []));
    const seg = pick(DOT_SEGMENTS, n);
    if (!slashes.length) return join({ ...p, rest: seg + p.rest });
    const i = pick(slashes, n >> 4);
    return join({ ...p, rest: p.rest.slice(0, i) + seg + p.rest.slice(i + 1) });
  },
  appendSuffix: (u, n) => u + pick(SUFFIXES, n),
  prependPrefix: (u, n) => pick(PREFIXES, n) + u,
  insertSuffixBeforeQuery: (u, n) => {
    const p = parts(u);
    const q = p.rest.search(/[?#]/);
    const at = q < 0 ? p.rest.length : q;
    return join({ ...p, rest: p.rest.slice(0, at) + pick(SUFFIXES, n) + p.rest.slice(at) });
  },
  trailingSlashToggle: (u) => (u.endsWith('/') ? u.slice(0, -1) : `${u}/`),
  removePath: (u, n) => {
    const p = parts(u);
    return join({ ...p, rest: pick(['', '/', '/login', '/admin/login', '/callback', '/oauth/callback', '/oauth', '/%2f'], n) });
  },
  duplicatePath: (u) => {
    const p = parts(u);
    return join({ ...p, rest: p.rest + p.rest });
  },
  userinfo: (u, n) => {
    const p = parts(u);
    if (!p.authority) return `//${pick(USERINFOS, n)}${u}`;
    return join({ ...p, authority: `//${pick(USERINFOS, n)}${p.authority.replace(/^\/\//, '')}` });
  },
  hostAsUserinfo: (u, n) => {
    const p = parts(u);
    const real = p.authority.replace(/^\/\//, '');
    return join({ ...p, authority: `//${real}${pick(['@', '%40', '\\@', '#@', '?@', '.', ':@'], n)}${pick(EVIL_HOSTS, n >> 3)}` });
  },
  replaceHost: (u, n) => {
    const p = parts(u);
    const host = hostOf(p.authority);
    const port = portOf(p.authority);
    const h = pick(EVIL_HOSTS, n);
    return join({ ...p, authority: `//${n % 5 === 0 ? `${h}.${host}` : n % 5 === 1 ? `${host}.${h}` : h}${port !== undefined ? `:${port}` : ''}` });
  },
  subdomain: (u, n) => {
    const p = parts(u);
    return join({ ...p, authority: `//${pick(['www.', 'evil.', 'a.b.', '.', '-', 'xn--'], n)}${p.authority.replace(/^\/\//, '')}` });
  },
  port: (u, n) => {
    const p = parts(u);
    const a = p.authority.replace(/^\/\//, '');
    const withoutPort = a.replace(/:\d*$/, '');
    return join({ ...p, authority: `//${withoutPort}${pick(PORTS, n)}` });
  },
  scheme: (u, n) => {
    const p = parts(u);
    return join({ ...p, scheme: pick(SCHEMES, n) });
  },
  schemeSlashes: (u, n) => {
    const p = parts(u);
    const a = p.authority.replace(/^\/\//, '');
    return `${p.scheme}${pick(['/', '///', '\\\\', '/\\', '\\/', '', '////', '%2f%2f', '\t//'], n)}${a}${p.rest}`;
  },
  fragment: (u, n) => u + pick(['#', '#a', '#access_token=x', '#%00', '#\u200b', '#/..', '#https://evil.example'], n),
  query: (u, n) => {
    const sep = u.includes('?') ? '&' : '?';
    return u + sep + pick(['a=b', 'code=x', 'state=x', 'redirect_uri=https%3A%2F%2Fevil.example', '', '=', '%00', 'a=%0d%0aSet-Cookie:x', '__proto__=1'], n);
  },
  zeroWidth: (u, n) => {
    const i = Math.abs(n) % (u.length + 1);
    return u.slice(0, i) + pick(ZERO_WIDTH, n >> 5) + u.slice(i);
  },
  homoglyph: (u, n) => {
    const idx = [...u].flatMap((c, i) => (HOMOGLYPHS[c] ? [i] : []));
    if (!idx.length) return u + pick(ZERO_WIDTH, n);
    const i = pick(idx, n);
    const alts = HOMOGLYPHS[u[i] as string] ?? [''];
    return u.slice(0, i) + pick(alts, n >> 5) + u.slice(i + 1);
  },
  normalizeForms: (u, n) => u.normalize(pick(['NFD', 'NFKD', 'NFC', 'NFKC'] as const, n)) + (n % 2 ? '\u0301' : ''),
  whitespace: (u, n) => {
    const i = Math.abs(n) % (u.length + 1);
    return u.slice(0, i) + pick([' ', '\t', '\n', '\r', '\u000b', '\u000c', '\u3000', '\u2028', '+', '%20', '%09'], n >> 5) + u.slice(i);
  },
  backslashes: (u, n) => (n % 2 ? u.replace(/\//g, '\\') : u.replace(/\/(?=[^/]*$)/, '\\')),
  deleteChar: (u, n) => {
    const i = Math.abs(n) % u.length;
    return u.slice(0, i) + u.slice(i + 1);
  },
  duplicateChar: (u, n) => {
    const i = Math.abs(n) % u.length;
    return u.slice(0, i + 1) + u.slice(i);
  },
  swapAdjacent: (u, n) => {
    const i = Math.abs(n) % Math.max(1, u.length - 1);
    return u.slice(0, i) + (u[i + 1] ?? '') + (u[i] ?? '') + u.slice(i + 2);
  },
  nulByte: (u, n) => {
    const i = Math.abs(n) % (u.length + 1);
    return u.slice(0, i) + pick(['\u0000', '%00', '%2500', '\\0', '\\u0000'], n >> 5) + u.slice(i);
  },
  emptyOrJunk: (_u, n) => pick(['', ' ', 'null', 'undefined', '[object Object]', '/', '//', '#', '?', 'about:blank', 'http://', 'https://', 'http:', '*', '%'], n),
};

const NAMES = Object.keys(MUTATORS);

/** One mutation step: which mutator and its integer. */
const stepArb = fc.tuple(fc.integer({ min: 0, max: NAMES.length - 1 }), fc.integer({ min: 0, max: 1 << 20 }));

export function mutate(uri: string, steps: readonly (readonly [number, number])[]): string {
  // an emptied string only grows again (mutators index into their input)
  return steps.reduce((u, [m, n]) => (u === '' ? pick(SUFFIXES, n) : (MUTATORS[NAMES[m] as string] as Mutator)(u, n)), uri);
}

/** Every mutator applied once with the integers 0…perMutator-1 (the hand-written classics), deduplicated, original excluded. */
export function singleMutations(uri: string, perMutator: number): string[] {
  const out = new Set<string>();
  for (const name of NAMES) {
    for (let n = 0; n < perMutator; n++) out.add((MUTATORS[name] as Mutator)(uri, n));
  }
  out.delete(uri);
  return [...out];
}

/**
 * At least `count` distinct variants of `uri` (the original itself excluded), deterministic for a seed:
 * first every mutator with a sweep of small integers (single mutations), then fast-check compositions of
 * 1–3 mutators.
 */
export function redirectVariants(uri: string, count: number, seed: number): string[] {
  const out = new Set<string>(singleMutations(uri, 64));
  const samples = fc.sample(fc.array(stepArb, { minLength: 1, maxLength: 3 }), { seed, numRuns: count * 3 });
  for (const steps of samples) {
    out.add(mutate(uri, steps));
    if (out.size > count * 1.2) break;
  }
  out.delete(uri);
  return [...out];
}
