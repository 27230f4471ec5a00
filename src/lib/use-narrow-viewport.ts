import { useEffect, useState } from 'react';

/** Below Panda's md breakpoint (48rem = 768 px): the phone layouts (the console's drawer, the user list's filter sheet). */
export const NARROW_QUERY = '(max-width: 767px)';

/** Whether the viewport is below md now; follows resizes. False where matchMedia is missing. */
export function useNarrowViewport(): boolean {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(NARROW_QUERY);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}
