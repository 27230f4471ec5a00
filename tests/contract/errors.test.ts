import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_ERROR_CODES, isErrorCode, UNDECLARED_ERROR_CODES } from '../../contract/errors';
import { allMessageCodes, LANGUAGES, loadMessages } from '../../server/i18n/index';
import { allEndpoints } from '../../contract/index';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Error codes written as literals where the server raises an error. */
function codesRaisedByServer(): Set<string> {
  const found = new Set<string>();
  const patterns = [
    /new AppError\(\s*\d+\s*,\s*'([a-z_]+)'/g,
    /\b(?:badRequest|unauthorized|forbidden|notFound|conflict)\(\s*'([a-z_]+)'/g,
    /tooManyRequests\([^,()]+,\s*'([a-z_]+)'\)/g,
  ];
  for (const file of sourceFiles(path.resolve(__dirname, '../../server'))) {
    const text = readFileSync(file, 'utf8');
    for (const re of patterns) for (const m of text.matchAll(re)) found.add(m[1]);
  }
  return found;
}

describe('the contract error codes', () => {
  beforeAll(loadMessages);

  it('lists every code the server raises', () => {
    const raised = [...codesRaisedByServer()];
    expect(raised.length).toBeGreaterThan(30);
    expect(raised.filter((c) => !isErrorCode(c))).toEqual([]);
  });

  it.each(LANGUAGES)('has a server message for every error code in %s', (lang) => {
    const known = new Set(allMessageCodes(lang));
    expect(ERROR_CODES.filter((c) => !known.has(c))).toEqual([]);
  });

  it('has no duplicates', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(new Set(FIELD_ERROR_CODES).size).toBe(FIELD_ERROR_CODES.length);
  });

  it('lists apart only codes no endpoint declares (the others come from the endpoints, contract/error-code-list.ts)', () => {
    const declared = new Set(allEndpoints().flatMap(({ endpoint }) => Object.values(endpoint.errors).flatMap((codes) => [...(codes ?? [])])));
    expect(UNDECLARED_ERROR_CODES.filter((code) => declared.has(code))).toEqual([]);
    expect(ERROR_CODES.filter((code) => !declared.has(code))).toEqual([...UNDECLARED_ERROR_CODES]);
  });

  it('endpoints only name listed codes', () => {
    const endpoints = allEndpoints();
    expect(endpoints.length).toBeGreaterThan(5);
    for (const { name, endpoint } of endpoints) for (const codes of Object.values(endpoint.errors)) for (const c of codes ?? []) expect(isErrorCode(c), `${name}: ${c}`).toBe(true);
  });
});
