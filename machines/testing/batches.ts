/**
 * Walks many model paths in tests of 100 (per-test overhead dominates otherwise); a failure names its path.
 * Shared by the machine tests that walk hundreds of paths.
 */
import { it } from 'vitest';
import { pathTitle, type AnyPath } from './graph';

export function itWalksInBatches(paths: AnyPath[], checkPath: (path: AnyPath) => void, size = 100): void {
  for (let start = 0; start < paths.length; start += size) {
    const batch = paths.slice(start, start + size);
    it(`paths ${start + 1}–${start + batch.length}`, () => {
      batch.forEach((path, i) => {
        try {
          checkPath(path);
        } catch (error) {
          throw new Error(`${pathTitle(path, start + i)}\n${String(error)}`);
        }
      });
    });
  }
}
