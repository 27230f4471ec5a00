import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIELD_ERROR_CODES } from '../../contract/errors';
import { passwordChecklist, SERVER_ONLY_PASSWORD_RULES } from '../../contract/domain/password-policy';

/** Password rules are field codes too; their issues name the rule through a variable. */
const PASSWORD_RULES: readonly string[] = [...passwordChecklist('').map((r) => r.rule), ...SERVER_ONLY_PASSWORD_RULES];
import { allMessageCodes, LANGUAGES, loadMessages } from '../../server/i18n/index';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Source without block comments and whole-line `//` comments (examples there are not codes). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** `'code'` literals inside a piece of source (the codes of one `['a', 'b']` list). */
const literals = (text: string) => [...text.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);

/**
 * Field error codes written as literals where the server builds a 422 `fields` map: `fields: { x: ['code'] }`,
 * `fields[x] = ['code']`, `Object.fromEntries(… [name, ['code']])`, `validationFailed({ x: ['code'] })`, zod custom
 * issues' `params: { code: 'code' }` (server/ and the contract's schemas the server parses with), and the codes
 * server/lib/validation.ts maps zod's own issues to.
 */
function fieldCodesOfServer(): Map<string, string> {
  const found = new Map<string, string>();
  const add = (code: string, file: string) => {
    if (!found.has(code)) found.set(code, path.relative(root, file));
  };
  const files = [...sourceFiles(path.join(root, 'server')), ...sourceFiles(path.join(root, 'contract'))].filter((f) => !f.includes(`${path.sep}i18n${path.sep}messages${path.sep}`));
  for (const file of files) {
    const text = withoutComments(readFileSync(file, 'utf8'));
    // fields: { email: ['email_taken'] } and validationFailed({ name: ['name_taken'] })
    for (const m of text.matchAll(/(?:\bfields:\s*|validationFailed\(\s*)\{([^{}]*)\}/g)) for (const list of (m[1] ?? '').matchAll(/:\s*\[([^[\]]*)\]/g)) for (const c of literals(list[1] ?? '')) add(c, file);
    // fields[`role_ids.${i}`] = ['role_unknown']
    for (const m of text.matchAll(/\bfields\[[^\]]*\]\s*=\s*\[\s*'([a-z_]+)'/g)) add(m[1] as string, file);
    // Object.fromEntries(missing.map((c) => [`columns.${c}`, ['required']]))
    for (const m of text.matchAll(/\[\s*`[^`]*`\s*,\s*\[\s*'([a-z_]+)'\s*\]\s*\]/g)) add(m[1] as string, file);
    // zod custom issues: params: { code: 'provider_required' }
    for (const m of text.matchAll(/\bparams:\s*\{\s*code:\s*'([a-z_]+)'/g)) add(m[1] as string, file);
  }
  // zod's own issues → codes: `code: 'too_short'` and `code: cond ? 'email' : 'invalid'` in the mapping
  const validation = path.join(root, 'server/lib/validation.ts');
  for (const m of withoutComments(readFileSync(validation, 'utf8')).matchAll(/\bcode:\s*([^,}]*)/g)) {
    for (const c of [...(m[1] ?? '').matchAll(/(?:^|\?|:)\s*'([a-z_]+)'/g)].map((x) => x[1] as string)) add(c, validation);
  }
  return found;
}

describe('the contract field error codes', () => {
  beforeAll(loadMessages);

  const found = fieldCodesOfServer();

  it('finds the codes the server writes and the ones it maps zod issues to', () => {
    for (const code of ['required', 'invalid', 'too_short', 'too_long', 'exact_length', 'email', 'too_small', 'too_big', 'unknown_field', 'email_taken', 'role_unknown', 'provider_required', 'csv_invalid']) {
      expect(found.has(code), code).toBe(true);
    }
  });

  it('lists every field code the server can send', () => {
    const listed = new Set<string>([...FIELD_ERROR_CODES, ...PASSWORD_RULES]);
    expect([...found].filter(([code]) => !listed.has(code)).map(([code, file]) => `${code} (${file})`)).toEqual([]);
  });

  it.each(LANGUAGES)('has a server text validation.<code> for every field code in %s', (lang) => {
    const known = new Set(allMessageCodes(lang));
    expect([...FIELD_ERROR_CODES, ...PASSWORD_RULES].filter((c) => !known.has(`validation.${c}`))).toEqual([]);
  });
});
