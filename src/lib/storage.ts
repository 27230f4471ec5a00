/**
 * localStorage access that never throws (private mode, disabled storage,
 * quota errors): the app keeps working with in-memory defaults.
 */
export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the value simply is not persisted.
  }
}

/** Storage keys used by the SPA (docs/SPEC.md §3 "Stored client keys" plus UI state). */
export const STORAGE_KEYS = {
  locale: 'locale',
  sidebar: 'sidebar',
} as const;
