/**
 * URL search validation for the routes' `validateSearch`, without zod: route definitions are in the entry chunk, and
 * zod (~22 KB brotli) is not needed for the first load (BENCHMARKS.md "Smaller first load"). Same rules as the zod
 * schemas they replace (`z.object({ k: z.….optional().catch(undefined) })`): unknown keys are dropped, a key present
 * with an invalid value becomes undefined, an absent key stays absent, nothing throws. Each route's test compares its
 * validator with the former zod schema.
 */

/** One search param: its value, or undefined when invalid. */
export type SearchField<T> = (value: unknown) => T | undefined;

/** An integer in [min, max] (safe integers only, as zod's `.int()`). */
export const intParam =
  (min: number, max: number = Number.MAX_SAFE_INTEGER): SearchField<number> =>
  (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max ? v : undefined);

/** A string of at most `max` characters, optionally matching `pattern`. */
export const stringParam =
  (max: number, pattern?: RegExp): SearchField<string> =>
  (v) => (typeof v === 'string' && v.length <= max && (!pattern || pattern.test(v)) ? v : undefined);

/** Any scalar as a string (search params arrive parsed as JSON: a numeric code is a number), at most `max` characters. */
export const textParam =
  (max: number): SearchField<string> =>
  (v) => {
    if (v === undefined || v === null) return undefined;
    try {
      const s = String(v);
      return s.length <= max ? s : undefined;
    } catch {
      return undefined;
    }
  };

/** One of `values`. */
export const oneOfParam =
  <const T extends string>(values: readonly T[]): SearchField<T> =>
  (v) => ((values as readonly unknown[]).includes(v) ? (v as T) : undefined);

export const booleanParam: SearchField<boolean> = (v) => (typeof v === 'boolean' ? v : undefined);

type Parsed<F> = { [K in keyof F]?: F[K] extends SearchField<infer T> ? T | undefined : never };

/** A `validateSearch` from one field per search param. */
export function searchValidator<F extends Record<string, SearchField<unknown>>>(fields: F): (input: Record<string, unknown>) => Parsed<F> {
  return (input) => {
    const out: Record<string, unknown> = {};
    for (const [key, parse] of Object.entries(fields)) if (key in input) out[key] = parse(input[key]);
    return out as Parsed<F>;
  };
}
