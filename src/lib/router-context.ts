import type { QueryClient } from '@tanstack/react-query';
import type { ActorRefFrom } from 'xstate';
import type { sessionMachine } from '../../machines/session.machine';

/**
 * The running session actor (machines/session.machine.ts). Route guards
 * (src/lib/guards.ts) read it in `beforeLoad` through `context.session`, e.g.
 * wait until it leaves the 'loading' tag, then check 'session:signed-in'
 * and `context.admin`.
 */
export type SessionHandle = ActorRefFrom<typeof sessionMachine>;

export interface RouterContext {
  session: SessionHandle;
  queryClient: QueryClient;
}
