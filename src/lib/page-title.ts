import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useRouterState } from '@tanstack/react-router';

/** A route's page title: a Lingui message (`msg` macro) or a literal such as '404'. */
export type PageTitle = MessageDescriptor | string;

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: PageTitle;
  }
}

export const APP_NAME = 'IAM';

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
