/**
 * A react-hook-form resolver that imports its schema on first use. A form on a first-load path (the login screen)
 * keeps its zod schema and `zodResolver` in a module of their own, loaded by the first validation (or by `preload`,
 * called once the form has rendered): zod and @hookform/resolvers stay out of the page's initial chunks
 * (BENCHMARKS.md "zod off the first load"), and validation is the very same schema's.
 */
import type { FieldValues, Resolver } from 'react-hook-form';

export type LazyResolver<T extends FieldValues> = Resolver<T> & {
  /** Starts loading the schema (once); the form calls it after its first render. */
  preload: () => Promise<Resolver<T>>;
};

export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): LazyResolver<T> {
  let loading: Promise<Resolver<T>> | null = null;
  const preload = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null; // a failed chunk load is retried by the next validation
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<T> = async (values, context, options) => (await preload())(values, context, options);
  return Object.assign(resolver, { preload });
}
