import { useEffect, useState, type ComponentType } from 'react';
import { reportPreloadError } from '../../lib/preload-error';

/** The props a lazily loaded dialog needs: it is controlled by its page. */
export interface LazyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export interface LazyDialog<P extends LazyDialogProps> {
  /** Renders nothing until first opened; then the loaded dialog, which stays mounted (exit animation, quick reopen). */
  Dialog: ComponentType<P>;
  /** Starts loading the dialog's code (the opener's hover and focus; `usePreloadWhenIdle`). */
  preload: () => void;
}

/**
 * A dialog whose code (forms, validation, its own widgets) is not part of the first load of the page that opens it:
 * the page paints without it, the chunk loads when the browser is idle after the first paint or when the opener is
 * hovered or focused, and at the latest when the dialog opens. When it cannot be loaded as the admin opens it (the
 * network, or a new version whose chunks replaced this one's), the dialog closes again and the app-wide banner offers
 * a reload (src/lib/preload-error.ts); the next attempt asks for the chunk again. The page itself stays as it is.
 */
export function lazyDialog<P extends LazyDialogProps>(load: () => Promise<ComponentType<P>>): LazyDialog<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const get = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));

  function LazyLoadedDialog(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    const [wanted, setWanted] = useState(props.open);
    if (props.open && !wanted) setWanted(true);
    const { onOpenChange } = props;
    useEffect(() => {
      if (!wanted || Component) return undefined;
      let current = true;
      get().then(
        (component) => {
          if (current) setComponent(() => component);
        },
        () => {
          if (!current) return;
          setWanted(false);
          onOpenChange(false);
          reportPreloadError();
        },
      );
      return () => {
        current = false;
      };
    }, [wanted, Component, onOpenChange]);
    return Component ? <Component {...props} /> : null;
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
