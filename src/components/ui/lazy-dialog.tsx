import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';

export interface LazyDialog<P> {
  /** Renders nothing until first opened; then the loaded dialog, which stays mounted (exit animation, quick reopen). */
  Dialog: ComponentType<P>;
  /** Starts loading the dialog's code (the opener's hover and focus; `usePreloadWhenIdle`). */
  preload: () => void;
}

/**
 * A dialog whose code (forms, validation, its own widgets) is not part of the first load of the page that opens it:
 * the page paints without it, the chunk loads when the browser is idle after the first paint or when the opener is
 * hovered or focused, and at the latest when the dialog opens. A chunk that failed to load is asked for again on
 * the next attempt.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): LazyDialog<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const get = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const Loaded = lazy(() => get().then((component) => ({ default: component })));
  function LazyLoadedDialog(props: P) {
    const [wanted, setWanted] = useState(props.open);
    if (props.open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return { Dialog: LazyLoadedDialog, preload: () => void get().catch(() => undefined) };
}

/** Calls each `preload` once the browser is idle after the first paint (a timeout where requestIdleCallback is missing). */
export function usePreloadWhenIdle(...preloads: (() => void)[]): void {
  useEffect(() => {
    const run = () => preloads.forEach((preload) => preload());
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(run, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(run, 200);
    return () => window.clearTimeout(id);
    // the preload functions are module-level constants
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
