import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSPECT_STORAGE_KEY, inspectWish, rememberInspectWish, shouldInspect } from './inspect';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

describe('the ?inspect wish', () => {
  it('is read from the URL: on, off, or nothing said', () => {
    expect(inspectWish('?inspect')).toBe('on');
    expect(inspectWish('?foo=1&inspect=1')).toBe('on');
    expect(inspectWish('?inspect=off')).toBe('off');
    expect(inspectWish('?inspect=0')).toBe('off');
    expect(inspectWish('?interaction=abc')).toBeNull();
    expect(inspectWish(undefined)).toBeNull();
    expect(shouldInspect(true, '?interaction=abc', true)).toBe(true);
    expect(shouldInspect(false, '?inspect', true)).toBe(false);
  });

  it('survives the provider round trip: /login?inspect → /login?interaction=… → /login?code=… → /', () => {
    const tab = memoryStorage();
    const loads = ['?inspect', '?interaction=uid-1', '?code=c&state=s', ''].map((search) => rememberInspectWish(true, search, tab));
    expect(loads).toEqual([true, true, true, true]);
    expect(tab.map.get(INSPECT_STORAGE_KEY)).toBe('1');
    expect(rememberInspectWish(true, '?inspect=off', tab)).toBe(false);
    expect(rememberInspectWish(true, '?interaction=uid-2', tab)).toBe(false);
  });

  it('is never taken outside development, nor remembered there', () => {
    const tab = memoryStorage();
    expect(rememberInspectWish(false, '?inspect', tab)).toBe(false);
    expect(tab.map.size).toBe(0);
  });

  it('falls back to the URL alone when the storage refuses', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => undefined };
    expect(rememberInspectWish(true, '?inspect', refusing)).toBe(true);
    expect(rememberInspectWish(true, '?interaction=x', refusing)).toBe(false);
  });
});

describe('every flow machine of the SPA is inspectable', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.gen.ts')) files.push(full);
    }
  };
  walk(path.resolve(__dirname, '../src'));

  it('useMachine / useActorRef / createActor of a machine pass inspectOptions()', () => {
    const calls = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/\b(useMachine|useActorRef|createActor)\(([\s\S]{0,400}?)\)\s*;/g)].map((m) => ({ file: path.relative(process.cwd(), file), call: m[0] }));
    });
    expect(calls.length).toBeGreaterThanOrEqual(5);
    const missing = calls.filter(({ call }) => !call.includes('inspectOptions()'));
    expect(missing).toEqual([]);
  });
});
