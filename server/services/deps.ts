/**
 * What services depend on, passed in explicitly. A service module exports `create<Name>Service(deps)`; the
 * services plugin (server/plugins/app/services.ts) builds each once per app and decorates `app.services`, so
 * routes call `app.services.<name>.<operation>(…)` and tests can build a service from a database alone.
 *
 * Services never take a FastifyInstance or a FastifyRequest: what they need from the request (who acts,
 * from which address, in which language) comes as plain values (`Actor`, `Language`).
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import type { Database } from '../db/schema';
import type { Db } from '../db/index';
import type { Mailer } from './mail';
import type { JobRunner } from './jobs';

export interface Clock {
  now(): Date;
  /** `now()` as an ISO-8601 string, the format every timestamp column holds. */
  nowIso(): string;
}

export const systemClock: Clock = {
  now: () => new Date(),
  nowIso: () => new Date().toISOString(),
};

/** Milliseconds since the epoch on `clock`: what `Date.now()` answers on the system clock. */
export const epochMs = (clock: Clock): number => clock.now().getTime();

export interface Deps {
  /** The database handle (dialect, availability); `db.kysely` for queries. */
  db: Db;
  config: AppConfig;
  mailer: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The app's background job runner (server/services/jobs.ts). */
  jobs: JobRunner;
}

/** What the shared low-level helpers (throttle, second factors, server secrets) need; a FastifyInstance has it too. */
export type ServiceHost = Pick<Deps, 'db' | 'config' | 'log'>;

/**
 * A ServiceHost for helpers that decide by the time (throttle windows and locks, second-factor codes): they read
 * `clock`, never `Date.now()`, so tests set the time. A FastifyInstance has it too (`app.clock`, the services plugin).
 */
export type ClockedHost = ServiceHost & Pick<Deps, 'clock'>;

/** The query builder, or a transaction of it: what a repository function runs its queries on. */
export type Queries = Kysely<Database>;

/** Who makes a change, for the audit trail and for rules such as "an admin cannot delete themself". */
export interface Actor {
  id: string | null;
  email: string | null;
  ip: string | null;
}

export const systemActor: Actor = { id: null, email: null, ip: null };

/** The signed-in account of a request (set by the auth guards) as an Actor. */
export function actorOf(request: FastifyRequest): Actor {
  return { id: request.auth?.account.id ?? null, email: request.auth?.account.email ?? null, ip: request.ip ?? null };
}
