import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document (the subset the zod transform
 * emits: type, enum, anyOf, pattern, min/max, properties/required, items, additionalProperties). Values are
 * mostly close to the schema, with boundary values (length/number limits ± 1), wrong types, huge strings,
 * unicode, NUL and prototype-pollution keys mixed in.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
}

export const HOSTILE_STRINGS: readonly string[] = [
  '', ' ', '\u0000', 'a\u0000b', '%00', '\t\r\n', '\ud800', '\udfff\ud800', '\u202eevil', '\ufeffbom', 'ǅ̶̡̛̖̗̘̙̜̝̞̟̠̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼ͅ', '𝕦𝕟𝕚𝕔𝕠𝕕𝕖', '😀'.repeat(70), 'Ω≈ç√∫˜µ≤≥÷',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' OR '1'='1' --", '1; DROP TABLE accounts; --', '../../../../etc/passwd', '..%2f..%2f', '${7*7}', '{{7*7}}', '%s%s%s%n',
  '=cmd|"/c calc"!A1', '@SUM(1+1)', '+1', '-1', '__proto__', 'constructor', 'prototype', 'null', 'undefined', 'NaN', 'Infinity', '-0', '0x10', '1e309', '9'.repeat(400),
  'a'.repeat(5000), 'ä'.repeat(3000), '\\', '"', "'", '`', '/', '//', '#', '?', '&', '=', '%', '%zz', '+', '*', 'true', 'false', '[]', '{}',
  'user@example.com', 'USER@EXAMPLE.COM', 'a@b', '@', 'a@b@c', ' user@example.com ', 'user+tag@example.com', 'üser@exämple.com', 'x@localhost', `${'a'.repeat(250)}@example.com`,
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '2026-02-30T25:61:61Z', '9999-12-31T23:59:59.999Z', '0000-00-00', '1970-01-01T00:00:00Z',
];
const HUGE = 'x'.repeat(300_000);
const WRONG_TYPES: readonly unknown[] = [null, 0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, true, false, [], [null], {}, { a: 1 }, '', 'x'];

/** An object whose own keys include the prototype-pollution classics (JSON.stringify keeps own `__proto__`). */
export function withPollution(obj: Record<string, unknown>, which: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...obj };
  const key = ['__proto__', 'constructor', 'prototype'][which % 3] as string;
  const value = which % 2 ? { polluted: 'yes', isAdmin: true, prototype: { polluted: 'yes' } } : { polluted: 'yes' };
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

function stringArb(s: JsonSchema, name: string): fc.Arbitrary<unknown> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 300;
  const near: fc.Arbitrary<unknown>[] = [];
  if (s.enum?.length) near.push(fc.constantFrom(...s.enum));
  if (s.pattern) {
    try {
      near.push(fc.stringMatching(new RegExp(s.pattern)));
    } catch {
      // a pattern the generator cannot handle: the other arbitraries cover the field
    }
  }
  if (/e?mail/i.test(name)) near.push(fc.emailAddress());
  if (/(^|_)id$|uuid|^id$/i.test(name)) near.push(fc.uuid());
  if (/password/i.test(name)) near.push(fc.constantFrom('Correct-Horse-9!', 'short', 'aaaaaaaaaaaaaaaa', 'Password123!', 'N0-Special-Char', 'x'.repeat(51)));
  if (/(^|_)(from|to|at)$|date|time/i.test(name)) near.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  near.push(fc.string({ minLength: min, maxLength: Math.min(max, 60) }));
  const boundary: unknown[] = ['a'.repeat(Math.max(0, min - 1)), 'a'.repeat(min), 'a'.repeat(Math.min(max, 100_000)), 'a'.repeat(Math.min(max + 1, 100_001))];
  return fc.oneof(
    { weight: 6, arbitrary: fc.oneof(...near) },
    { weight: 2, arbitrary: fc.constantFrom(...boundary) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) },
    { weight: 1, arbitrary: fc.constant(HUGE) },
  );
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
  const min = s.minimum ?? s.exclusiveMinimum ?? -1e6;
  const max = s.maximum ?? s.exclusiveMaximum ?? 1e6;
  const boundary = [min - 1, min, min + 1, max - 1, max, max + 1, 0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, min + 0.5];
  return fc.oneof(
    { weight: 5, arbitrary: integer ? fc.integer({ min: Math.max(-(2 ** 31), Math.ceil(min)), max: Math.min(2 ** 31, Math.floor(max)) }) : fc.double({ min, max, noNaN: true }) },
    { weight: 3, arbitrary: fc.constantFrom(...boundary) },
    { weight: 1, arbitrary: fc.constantFrom('1', '1e3', 'NaN', '', null, true, [], {}, '0x1f', ' 1 ') },
  );
}

export function arbFromSchema(s: JsonSchema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 4) return fc.constantFrom(...WRONG_TYPES);
  if (s.const !== undefined) return fc.oneof({ weight: 4, arbitrary: fc.constant(s.const) }, { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) });
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => arbFromSchema(a, name, depth + 1)));
  if (s.allOf?.length) return arbFromSchema(Object.assign({}, ...s.allOf) as JsonSchema, name, depth + 1);
  const types = typesOf(s);
  const arbs: fc.Arbitrary<unknown>[] = [];
  for (const t of types.length ? types : ['string']) {
    if (t === 'string') arbs.push(stringArb(s, name));
    else if (t === 'integer') arbs.push(numberArb(s, true));
    else if (t === 'number') arbs.push(numberArb(s, false));
    else if (t === 'boolean') arbs.push(fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom('true', 1, 0, null, 'yes') }));
    else if (t === 'null') arbs.push(fc.constant(null));
    else if (t === 'array') {
      const item = arbFromSchema(s.items, name, depth + 1);
      arbs.push(
        fc.oneof(
          { weight: 5, arbitrary: fc.array(item, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, 5) }) },
          { weight: 1, arbitrary: fc.array(item, { minLength: 0, maxLength: 2 }).map((xs) => [...xs, ...Array.from({ length: (s.maxItems ?? 500) + 1 }, () => xs[0] ?? 'x')]) },
          { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) },
        ),
      );
    } else if (t === 'object') arbs.push(objectArb(s, depth));
  }
  return arbs.length === 1 ? (arbs[0] as fc.Arbitrary<unknown>) : fc.oneof(...arbs);
}

function objectArb(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const fields = props.map(([k, v]) =>
    fc.tuple(fc.constant(k), arbFromSchema(v, k, depth + 1), fc.integer({ min: 0, max: 9 })).map(([key, value, roll]) => {
      // required fields are mostly present, optional ones half of the time
      const present = required.has(key) ? roll > 0 : roll > 4;
      return present ? ([key, value] as const) : null;
    }),
  );
  const base = fc.tuple(...fields).map((entries) => Object.fromEntries(entries.filter((e): e is readonly [string, unknown] => e !== null)));
  return fc.oneof(
    { weight: 6, arbitrary: base },
    { weight: 2, arbitrary: fc.tuple(base, fc.nat()).map(([o, n]) => withPollution(o, n)) },
    { weight: 1, arbitrary: fc.tuple(base, fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })).map(([o, extra]) => ({ ...extra, ...o })) },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) },
  );
}
