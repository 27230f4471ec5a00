import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { consoleLine, INSPECT_STORAGE_KEY, inspectModeOf, inspectWish, rememberInspectWish } from './inspect';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

describe('the ?inspect wish', () => {
  it('is read from the URL: a mode, off, or nothing said', () => {
    expect(inspectWish('?inspect')).toBe('popup');
    expect(inspectWish('?foo=1&inspect=1')).toBe('popup');
    expect(inspectWish('?inspect=ws')).toBe('ws');
    expect(inspectWish('?inspect=console')).toBe('console');
    expect(inspectWish('?inspect=off')).toBe('off');
    expect(inspectWish('?inspect=0')).toBe('off');
    expect(inspectWish('?interaction=abc')).toBeNull();
    expect(inspectWish(undefined)).toBeNull();
    expect(inspectModeOf(true, '?interaction=abc', 'ws')).toBe('ws');
    expect(inspectModeOf(true, '?interaction=abc', '1')).toBe('popup');
    expect(inspectModeOf(false, '?inspect', 'popup')).toBeNull();
  });

  it('survives the provider round trip: /login?inspect=ws → /login?interaction=… → /login?code=… → /', () => {
    const tab = memoryStorage();
    const loads = ['?inspect=ws', '?interaction=uid-1', '?code=c&state=s', ''].map((search) => rememberInspectWish(true, search, tab));
    expect(loads).toEqual(['ws', 'ws', 'ws', 'ws']);
    expect(tab.map.get(INSPECT_STORAGE_KEY)).toBe('ws');
    expect(rememberInspectWish(true, '?inspect=off', tab)).toBeNull();
    expect(rememberInspectWish(true, '?interaction=uid-2', tab)).toBeNull();
  });

  it('is never taken outside development, nor remembered there', () => {
    const tab = memoryStorage();
    expect(rememberInspectWish(false, '?inspect', tab)).toBeNull();
    expect(tab.map.size).toBe(0);
  });

  it('falls back to the URL alone when the storage refuses', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => undefined };
    expect(rememberInspectWish(true, '?inspect=console', refusing)).toBe('console');
    expect(rememberInspectWish(true, '?interaction=x', refusing)).toBeNull();
  });

  it('console mode: one line per snapshot, naming the actor, the event and the state', () => {
    const actor = createActor(createMachine({ id: 'demo', initial: 'a', states: { a: { on: { GO: 'b' } }, b: {} } }));
    const lines: string[] = [];
    const observed = createActor(createMachine({ id: 'demo', initial: 'a', states: { a: { on: { GO: 'b' } }, b: {} } }), {
      inspect: (event) => {
        const line = consoleLine(event);
        if (line) lines.push(line);
      },
    });
    observed.start();
    observed.send({ type: 'GO' });
    expect(lines.at(-1)).toMatch(/^\[inspect\] .+: GO → "b"$/);
    expect(actor.getSnapshot().value).toBe('a');
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
