import { useSelector } from '@xstate/react';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
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
}

export const SessionContext = createContext<SessionValue | null>(null);

/** Exposes the session actor's token, logout and language change to components. */
export function SessionProvider({ session, children }: { session: SessionHandle; children: ReactNode }) {
  const accessToken = useSelector(session, (snapshot) => snapshot.context.tokens?.access_token ?? null);
  const admin = useSelector(session, (snapshot) => snapshot.context.admin);
  const value = useMemo<SessionValue>(
    () => ({
      accessToken,
      admin,
      session,
      logout: () => session.send({ type: 'LOGOUT' }),
      changeLanguage: (locale) => session.send({ type: 'LANGUAGE_CHANGED', locale }),
    }),
    [accessToken, admin, session],
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

function storeLocally(locale: string): void {
  writeStorage(STORAGE_KEYS.locale, locale);
}

function noop(): void {}
