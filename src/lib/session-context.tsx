import { useSelector } from '@xstate/react';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { SessionHandle } from './router-context';

export interface SessionValue {
  accessToken: string | null;
  /** Ends the session (revoke, clear storage and cache, end-session redirect). */
  logout: () => void;
}

export const SessionContext = createContext<SessionValue | null>(null);

/** Exposes the session actor's token and logout to components. */
export function SessionProvider({ session, children }: { session: SessionHandle; children: ReactNode }) {
  const accessToken = useSelector(session, (snapshot) => snapshot.context.tokens?.access_token ?? null);
  const value = useMemo<SessionValue>(() => ({ accessToken, logout: () => session.send({ type: 'LOGOUT' }) }), [accessToken, session]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Lets tests and stories provide a session without an actor. */
export function StaticSessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useLogout(): () => void {
  const session = useContext(SessionContext);
  return session?.logout ?? noop;
}

function noop(): void {}
