import { useRef } from 'react';

/**
 * The search params a list screen asked for last, and a way to ask for new ones on top of them.
 *
 * A navigation does not commit at once (the router runs its guards first; on a loaded machine that takes longer than
 * the search box's 300 ms pause). A change built from the rendered `search` while another is on its way would drop
 * it: clearing the search box, then picking "Technical users" before the box's pause is over, lost the filter (the
 * box's late change carried the old params). Every change here starts from the last one asked for; the rendered
 * params take over again when the router delivers new ones.
 */
export function useSearchParams<S extends object>(search: S, onSearchChange: (next: S) => void): { latest: () => S; change: (next: S) => void } {
  const requested = useRef(search);
  const delivered = useRef(search);
  if (delivered.current !== search) {
    delivered.current = search;
    requested.current = search;
  }
  return {
    latest: () => requested.current,
    change: (next: S) => {
      requested.current = next;
      onSearchChange(next);
    },
  };
}
