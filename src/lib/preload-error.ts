import { useSyncExternalStore } from 'react';

/**
 * Failures to load a lazily loaded chunk (docs/SPEC.md §8 "preload error"): Vite
 * dispatches `vite:preloadError` on window; route chunks that fail end up in
 * the route error boundary, which uses `isChunkLoadError`.
 */
let failed = false;
const listeners = new Set<() => void>();

export function reportPreloadError(): void {
  failed = true;
  listeners.forEach((listener) => listener());
}

export function installPreloadErrorListener(target: Window = window): () => void {
  const handler = () => reportPreloadError();
  target.addEventListener('vite:preloadError', handler);
  return () => target.removeEventListener('vite:preloadError', handler);
}

export function usePreloadError(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => failed,
    () => false,
  );
}

const CHUNK_ERROR = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i;

export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof Error) return CHUNK_ERROR.test(error.message) || error.name === 'ChunkLoadError';
  return false;
}
