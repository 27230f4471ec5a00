import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A component loaded when first shown, with the same props: until its chunk arrives (a few milliseconds after the page
 * renders), `Placeholder` shows its look, not yet operable. Keeps a widget's machinery (Ark UI / zag, date libraries)
 * out of the first load of a page that shows it (date-field-lazy, simple-select-lazy, data-pagination-lazy).
 */
export function lazyWithPlaceholder<P extends object>(load: () => Promise<ComponentType<P>>, Placeholder: ComponentType<P>): ComponentType<P> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  return function LazyWithPlaceholder(props: P) {
    return (
      <Suspense fallback={<Placeholder {...props} />}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
