import { useCallback, useState } from 'react';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../../lib/storage';

type SidebarState = 'open' | 'closed';

function readSidebarState(): SidebarState {
  return readStorage(STORAGE_KEYS.sidebar) === 'closed' ? 'closed' : 'open';
}

/** Admin sidebar open/closed, persisted in localStorage (key `sidebar`). */
export function useSidebarState(): { collapsed: boolean; toggle: () => void; setCollapsed: (collapsed: boolean) => void } {
  const [collapsed, setCollapsedState] = useState(() => readSidebarState() === 'closed');
  const setCollapsed = useCallback((next: boolean) => {
    setCollapsedState(next);
    writeStorage(STORAGE_KEYS.sidebar, next ? 'closed' : 'open');
  }, []);
  const toggle = useCallback(() => {
    setCollapsedState((previous) => {
      const next = !previous;
      writeStorage(STORAGE_KEYS.sidebar, next ? 'closed' : 'open');
      return next;
    });
  }, []);
  return { collapsed, toggle, setCollapsed };
}
