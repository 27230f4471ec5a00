import { useEffect, useState, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { LanguagePicker } from '../../../components/language-picker';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/skip-link';
import { useCurrentAdmin } from '../../../lib/current-admin';
import { usePageTitle } from '../../../lib/page-title';
import { useLogout } from '../../../lib/session-context';
import { Sidebar, SIDEBAR_WIDTH_CLOSED, SIDEBAR_WIDTH_OPEN } from './sidebar';
import { useSidebarState } from './sidebar-state';
import { UserMenu } from './user-menu';

export interface AdminShellProps {
  children: ReactNode;
  /** Overrides the session's logout (tests, embedding). */
  onLogout?: () => void;
}

/** Admin area frame: collapsible sidebar + header (page title, language, account menu) + main. */
export function AdminShell({ children, onLogout }: AdminShellProps) {
  const { collapsed: storedCollapsed, toggle: toggleStored } = useSidebarState();
  const narrow = useNarrowViewport();
  // On narrow screens the rail stays collapsed (80 px) and opens over the content on demand, without
  // touching the stored desktop preference.
  const [narrowOpen, setNarrowOpen] = useState(false);
  useEffect(() => setNarrowOpen(false), [narrow]);
  const collapsed = narrow ? !narrowOpen : storedCollapsed;
  const toggle = narrow ? () => setNarrowOpen((open) => !open) : toggleStored;
  const admin = useCurrentAdmin();
  const title = usePageTitle();
  const sessionLogout = useLogout();
  const offset = narrow || collapsed ? SIDEBAR_WIDTH_CLOSED : SIDEBAR_WIDTH_OPEN;

  return (
    <div className={css({ minHeight: '100dvh', bg: 'bg.canvas' })}>
      <SkipLink />
      <Sidebar role={admin?.role ?? null} collapsed={collapsed} onToggle={toggle} />
      <div style={{ marginInlineStart: offset }} className={css({ display: 'flex', flexDirection: 'column', minHeight: '100dvh', transition: 'margin token(durations.normal) ease' })}>
        <header
          className={css({
            position: 'sticky',
            top: '0',
            zIndex: 'header',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '4',
            height: 'header',
            px: '6',
            bg: 'bg.surface',
            borderBottomWidth: '1px',
            borderColor: 'border.default',
          })}
        >
          <p className={css({ fontSize: 'lg', fontWeight: 'semibold', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })} data-testid="admin-page-title">
            {title}
          </p>
          <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
            <LanguagePicker />
            <UserMenu admin={admin} onLogout={onLogout ?? sessionLogout} />
          </div>
        </header>
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className={css({ flex: '1', p: '6', outline: 'none' })}>
          {children}
        </main>
      </div>
    </div>
  );
}

const NARROW_QUERY = '(max-width: 767px)';

function useNarrowViewport(): boolean {
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
