import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useSyncExternalStore } from 'react';

/** A route's page title: a Lingui message (`msg` macro) or a literal such as '404'. */
export type PageTitle = MessageDescriptor | string;

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: PageTitle;
  }
}

export const APP_NAME = 'IAM';

/** `document.title`: the page's title and the product's name ("Sign in · IAM"), the product's name alone without one. */
export function documentTitle(page: string | null | undefined): string {
  return page && page !== APP_NAME ? `${page} · ${APP_NAME}` : APP_NAME;
}

// The title of a screen swapped in place on the same route (the sign-in's two-factor step): it replaces the route's
// title while the screen is shown. The last one set wins.
let screenTitles: { id: number; title: string }[] = [];
let nextScreenTitleId = 0;
const screenTitleListeners = new Set<() => void>();
const subscribeScreenTitle = (listener: () => void) => {
  screenTitleListeners.add(listener);
  return () => void screenTitleListeners.delete(listener);
};
const currentScreenTitle = () => screenTitles.at(-1)?.title ?? null;

/** While mounted with a title, the document's title names this screen instead of the route's title. */
export function useScreenTitle(title: string | null): void {
  useEffect(() => {
    if (!title) return;
    const entry = { id: nextScreenTitleId++, title };
    screenTitles = [...screenTitles, entry];
    screenTitleListeners.forEach((listener) => listener());
    return () => {
      screenTitles = screenTitles.filter((other) => other.id !== entry.id);
      screenTitleListeners.forEach((listener) => listener());
    };
  }, [title]);
}

/** The document's title: the swapped-in screen's title, else the route's, with the product's name. */
export function useDocumentTitle(): string {
  const page = usePageTitle();
  const screen = useSyncExternalStore(subscribeScreenTitle, currentScreenTitle, currentScreenTitle);
  return documentTitle(screen ?? page);
}

/**
 * Title of the deepest matched route that declares one; '404' when nothing
 * matched, '403' for forbidden paths.
 */
export function usePageTitle(): string {
  const { i18n } = useLingui();
  const { title, notFound, pathname } = useRouterState({
    select: (state) => {
      const matches = state.matches;
      let found: PageTitle | undefined;
      for (let index = matches.length - 1; index >= 0; index--) {
        const candidate = matches[index]?.staticData.title;
        if (candidate !== undefined) {
          found = candidate;
          break;
        }
      }
      const missing = matches.some((match) => match.status === 'notFound' || match._notFound === true);
      return { title: found, notFound: missing, pathname: state.location.pathname };
    },
  });
  if (notFound) return pathname.includes('403') ? '403' : '404';
  if (title === undefined) return APP_NAME;
  return typeof title === 'string' ? title : i18n._(title);
}
