/**
 * Who may send the counter's commands: `COUNTER_WRITES=anyone|signed-in|aal2` (default `anyone`,
 * as the specification has the counter: its commands need no sign-in). Every command surface (REST,
 * server functions, gRPC) asks the same question before a command runs: `sender(headers)` answers
 * who sends it (recorded in its events) or refuses with AppError('unauthorized') (REST and server
 * functions: 401 in the envelope; gRPC: UNAUTHENTICATED).
 *
 * The counter knows no sessions: this is the narrow interface it needs, and the composition root
 * (src/app.ts) gives it the auth module's guards (src/auth/rest/require-session.ts).
 */
import type { Actor, CounterDeps } from './application/deps.ts';
import type { CounterWrites } from '../config.ts';

export interface WriteAccess {
  /** The policy in force (the page says "Sign in to change the count" when it is not `anyone`). */
  policy: CounterWrites;
  /** The command's sender, undefined when sent without a session where anyone may write; throws AppError('unauthorized'). */
  sender(headers: Headers): Promise<Actor | undefined>;
}

/** What the guards of the auth module offer, as far as the counter needs them. */
export interface SessionLookup {
  userOf(headers: Headers): Promise<{ userId: string } | undefined>;
  check(headers: Headers, requirement: 'session' | 'aal2'): Promise<{ userId: string }>;
}

/** The access of `policy`: with `anyone`, a session only names the sender; else it is required. */
export function writeAccess(policy: CounterWrites, sessions: SessionLookup): WriteAccess {
  const actor = (user: { userId: string } | undefined): Actor | undefined => user && { userId: user.userId };
  if (policy === 'anyone') return { policy, sender: async (headers) => actor(await sessions.userOf(headers)) };
  const requirement = policy === 'aal2' ? 'aal2' : 'session';
  return { policy, sender: async (headers) => actor(await sessions.check(headers, requirement)) };
}

/** Anyone, and nobody known: the access of a counter without the auth module (unit tests). */
export const ANYONE_ANONYMOUS: WriteAccess = { policy: 'anyone', sender: async () => undefined };

/** What the command surfaces (REST, server functions, gRPC, the page) are built from: the application's deps and who may write. */
export interface CounterSurfaceDeps extends CounterDeps {
  /** Absent: ANYONE_ANONYMOUS. */
  writeAccess?: WriteAccess;
}
