import { useSelector } from '@xstate/react';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { selectAccessToken, selectIsAdmin, selectSessionScreen, type SessionScreen } from '../../machines/session.machine';
import type { SessionHandle } from './router-context';
import { writeStorage, STORAGE_KEYS } from './storage';

export interface SessionValue {
  accessToken: string | null;
  /** Whether the signed-in account is an admin (admin console client). */
  admin?: boolean;
  /** Ends the session (revoke, clear storage and cache, end-session redirect). */
  logout: () => void;
  /**
   * Records a language change (docs/SPEC.md §4): signed in → saved to the profile
   * (PATCH /api/user or /api/admin) and cached data reset; guest → stored locally.
   */
  changeLanguage?: (locale: string) => void;
  /** The session actor itself, for screens that send it events (TOKENS_RECEIVED…). */
  session?: SessionHandle;
  /** The session's screen tag (`screen:session.*`), rendered by the area layouts as `data-screen` on their root. */
  screen?: SessionScreen;
}

export const SessionContext = createContext<SessionValue | null>(null);

/** Exposes the session actor's token, logout and language change to components. */
export function SessionProvider({ session, children }: { session: SessionHandle; children: ReactNode }) {
  const accessToken = useSelector(session, selectAccessToken);
  const admin = useSelector(session, selectIsAdmin);
  const screen = useSelector(session, selectSessionScreen);
  const value = useMemo<SessionValue>(
    () => ({
      accessToken,
      admin,
      session,
      logout: () => session.send({ type: 'LOGOUT' }),
      changeLanguage: (locale) => session.send({ type: 'LANGUAGE_CHANGED', locale }),
      screen,
    }),
    [accessToken, admin, screen, session],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionValue(): SessionValue | null {
  return useContext(SessionContext);
}

export function useLogout(): () => void {
  const session = useContext(SessionContext);
  return session?.logout ?? noop;
}

/** Language change through the session when there is one, else stored locally. */
export function useChangeLanguage(): (locale: string) => void {
  const session = useContext(SessionContext);
  return session?.changeLanguage ?? storeLocally;
}

/**
 * The session's screen tag for the area layouts' root element (`data-screen`): `screen:session.signed-in` on the user
 * and admin layouts, `screen:session.signed-out` / `signing-in` on the public ones, `signing-out` while the session
 * revokes (machines/session.qa.ts says what each one shows). Undefined without a session provider (isolated tests).
 */
export function useSessionScreen(): SessionScreen | undefined {
  return useContext(SessionContext)?.screen;
}

function storeLocally(locale: string): void {
  writeStorage(STORAGE_KEYS.locale, locale);
}

function noop(): void {}

/** The area layouts' root: carries the session's screen tag (`data-screen`) for the QA walk (machines/session.qa.ts). */
export function SessionScreenRoot({ children }: { children: ReactNode }) {
  const screen = useSessionScreen();
  return <div data-screen={screen}>{children}</div>;
}
