import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Common and breached passwords (ASVS 5.0 V6.2.4: at least the top 3 000). The list is zxcvbn-ts'
 * `passwords-common` (@zxcvbn-ts/language-common, ~49 000 entries from breach corpora, lower-case), shipped
 * with the server and checked offline; it is deliberately NOT in the SPA bundle: the server answers 422
 * `password_common` on every path that sets a password and the SPA shows that field error.
 *
 * The composition rules (12+ characters, upper, lower, digit, special) already exclude almost every list
 * entry as typed, so a password is also refused when its core is on the list: lower-cased, with the leading
 * and trailing digits/special characters removed ("Summer2024!!" → "summer"), and with the usual
 * substitutions undone ("P@ssw0rd1234" → "password"). Cores shorter than 4 letters are not looked up.
 */
let list: Set<string> | null = null;

function commonPasswords(): Set<string> {
  list ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return list;
}

/** How many passwords the list holds (the test checks the ASVS minimum of 3 000). */
export function commonPasswordCount(): number {
  return commonPasswords().size;
}

const LEET: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's', '+': 't', '!': 'i' };
const deLeet = (s: string, one: 'i' | 'l') => s.replace(/[0134578@$+!9]/g, (c) => (c === '1' ? one : (LEET[c] ?? c)));
const strip = (s: string) => s.replace(/^[^a-z]+|[^a-z]+$/g, '');

/** The forms of a password that are looked up in the list. */
export function commonPasswordCandidates(password: string): string[] {
  const lower = password.toLowerCase();
  const core = strip(lower);
  const out = new Set<string>([lower]);
  for (const one of ['i', 'l'] as const) {
    for (const c of [core, strip(deLeet(lower, one)), deLeet(core, one)]) if (c.length >= 4) out.add(c);
  }
  if (core.length >= 4) out.add(core);
  return [...out];
}

export function isCommonPassword(password: string): boolean {
  const set = commonPasswords();
  return commonPasswordCandidates(password).some((c) => set.has(c));
}
