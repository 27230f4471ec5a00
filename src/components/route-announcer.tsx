import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { focusWhenReady, LiveRegion, useAnnouncement } from '../lib/focus-after-swap';
import { useDocumentTitle } from '../lib/page-title';

/**
 * In the root route: keeps `document.title` on the page's title with the product's name, and after every page change
 * (a new path; not the first page, not a change of search params only) moves focus to the new page's h1 and
 * announces its title in a polite live region (src/lib/focus-after-swap.tsx).
 */
export function RouteAnnouncer() {
  const title = useDocumentTitle();
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname ?? null });
  const { message, announce } = useAnnouncement();
  const previous = useRef<string | null>(null);
  const titleRef = useRef(title);
  titleRef.current = title;
  const announceRef = useRef(announce);
  announceRef.current = announce;

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    if (pathname === null) return;
    const before = previous.current;
    previous.current = pathname;
    if (before === null || before === pathname) return;
    // the new page has rendered with the resolved location (its h1, or a loading state until its h1 appears)
    return focusWhenReady({
      selector: 'h1',
      marked: false,
      onFocused: (heading) => announceRef.current(heading.textContent?.trim() || titleRef.current),
    });
  }, [pathname]);

  return <LiveRegion message={message} testId="route-announcer" />;
}
