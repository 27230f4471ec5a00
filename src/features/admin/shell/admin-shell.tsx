import { useLingui } from '@lingui/react/macro';
import { useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { css } from 'styled-system/css';
import { LanguagePicker } from '../../../components/language-picker';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/skip-link';
import { MenuIcon } from '../../../components/ui/icons-more';
import { setPhoneToastSlot, useToastLane } from '../../../components/ui/toast-lane';
import { useCurrentAdmin } from '../../../lib/current-admin';
import { usePageTitle } from '../../../lib/page-title';
import { useLogout } from '../../../lib/session-context';
import { useNarrowViewport } from '../../../lib/use-narrow-viewport';
import { Sidebar, SIDEBAR_WIDTH_CLOSED, SIDEBAR_WIDTH_OPEN } from './sidebar';
import { useSidebarState } from './sidebar-state';
import { UserMenu } from './user-menu';

// The phone navigation (an Ark dialog: focus trap, scroll lock) is rendered below 768 px only: its own chunk.
const NavDrawer = lazy(() => import('./nav-drawer').then((module) => ({ default: module.NavDrawer })));

export interface AdminShellProps {
  children: ReactNode;
  /** Overrides the session's logout (tests, embedding). */
  onLogout?: () => void;
}

/**
 * Admin area frame: sidebar (from 768 px; a drawer behind a menu button on phones) + header (page title, language,
 * account menu) + main. The header shows the page title only once the page's own h1 has scrolled away, so the
 * title is never shown twice.
 */
export function AdminShell({ children, onLogout }: AdminShellProps) {
  const { t } = useLingui();
  const { collapsed, toggle } = useSidebarState();
  const narrow = useNarrowViewport();
  const [drawerOpen, setDrawerOpen] = useState(false);
  useEffect(() => {
    if (!narrow) setDrawerOpen(false);
  }, [narrow]);
  const admin = useCurrentAdmin();
  const title = usePageTitle();
  const sessionLogout = useLogout();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const mainRef = useRef<HTMLElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  useToastLane(headerRef);
  const headingVisible = useHeadingVisible(mainRef, pathname);

  return (
    <div className={css({ display: 'flex', minHeight: '100dvh', bg: 'bg.canvas' })}>
      <SkipLink />
      <div
        data-testid="sidebar-column"
        style={{ width: collapsed ? SIDEBAR_WIDTH_CLOSED : SIDEBAR_WIDTH_OPEN }}
        className={css({
          display: { base: 'none', md: 'block' },
          flexShrink: 0,
          position: 'relative',
          zIndex: 'overlay',
          bg: 'bg.sidebar',
          transition: 'width token(durations.normal) ease',
        })}
      >
        <Sidebar role={admin?.role ?? null} collapsed={collapsed} onToggle={toggle} />
      </div>
      {narrow ? (
        <Suspense fallback={null}>
          <NavDrawer role={admin?.role ?? null} open={drawerOpen} onOpenChange={setDrawerOpen} />
        </Suspense>
      ) : null}
      <div className={css({ display: 'flex', flexDirection: 'column', flex: '1', minWidth: '0' })}>
        <header
          ref={headerRef}
          className={css({
            position: 'sticky',
            top: '0',
            zIndex: 'header',
            display: 'flex',
            alignItems: 'center',
            gap: { base: '2', md: '4' },
            height: 'header',
            px: { base: '3', md: '6' },
            bg: 'bg.surface',
            borderBottomWidth: '1px',
            borderColor: 'border.default',
          })}
        >
          <button
            type="button"
            data-toast-avoid="start"
            aria-label={t`Open navigation`}
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
            className={css({
              display: { base: 'inline-flex', md: 'none' },
              alignItems: 'center',
              justifyContent: 'center',
              flexShrink: 0,
              width: '10',
              height: '10',
              borderRadius: 'md',
              cursor: 'pointer',
              color: 'fg.default',
              _hover: { bg: 'bg.subtle' },
            })}
          >
            <MenuIcon width={22} height={22} />
          </button>
          <p
            data-testid="admin-page-title"
            aria-hidden={headingVisible || undefined}
            title={title}
            className={css({
              flex: '1',
              minWidth: '0',
              fontSize: 'lg',
              fontWeight: 'semibold',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              transition: 'opacity token(durations.fast)',
              '&[aria-hidden=true]': { opacity: 0, visibility: 'hidden' },
            })}
          >
            {title}
          </p>
          <div data-toast-avoid="end" className={css({ display: 'flex', alignItems: 'center', gap: { base: '1', md: '3' }, flexShrink: 0 })}>
            <LanguagePicker compact />
            <UserMenu admin={admin} onLogout={onLogout ?? sessionLogout} />
          </div>
        </header>
        {/* the phone lane of toasts, sticky under the header (components/ui/toast-lane.ts) */}
        <div ref={setPhoneToastSlot} data-testid="phone-toast-slot" className={css({ position: 'sticky', top: 'header', zIndex: 'header' })} />
        <main ref={mainRef} id={MAIN_CONTENT_ID} tabIndex={-1} className={css({ flex: '1', p: { base: '4', md: '6' }, outline: 'none', minWidth: '0' })}>
          {children}
        </main>
      </div>
    </div>
  );
}

/** Whether the page's h1 is on screen below the sticky header (false while there is none, or without IntersectionObserver). */
function useHeadingVisible(main: RefObject<HTMLElement | null>, pathname: string): boolean {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const root = main.current;
    if (!root || typeof IntersectionObserver === 'undefined' || typeof MutationObserver === 'undefined') return;
    let observed: Element | null = null;
    const intersection = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) if (entry.target === observed) setVisible(entry.isIntersecting);
      },
      { rootMargin: '-64px 0px 0px 0px' },
    );
    const attach = () => {
      const heading = root.querySelector('h1');
      if (heading === observed) return;
      if (observed) intersection.unobserve(observed);
      observed = heading;
      if (heading) intersection.observe(heading);
      else setVisible(false);
    };
    attach();
    const mutations = new MutationObserver(attach);
    mutations.observe(root, { childList: true, subtree: true });
    return () => {
      intersection.disconnect();
      mutations.disconnect();
    };
  }, [main, pathname]);
  return visible;
}
