/**
 * Routes that require a session: middleware any route of the component can put before its handler
 * (docs/extending.md, docs/auth.md "Routes that require a session").
 *
 *   const guards = sessionGuards(auth);
 *   app.get('/api/hello', guards.requireSession(), (c) => c.json({ user: c.var.user.userId }));
 *   app.post('/api/vault', guards.requireAal('aal2'), handler);
 *
 * The session is the cookie's, looked up as every auth route looks it up (active, not revoked,
 * neither past its absolute expiry nor idle past AUTH_SESSION_IDLE_SECONDS: OWASP Session
 * Management Cheat Sheet). Without one the route answers 401 `unauthorized` in the error envelope;
 * a session whose assurance level is too low answers 401 as well, as a step-up challenge does
 * (RFC 9470 §3: the resource needs a stronger authentication, not other rights). The handler
 * sees `c.var.user`: the user id, assurance level and methods, never the email.
 *
 * `check(headers, requirement)` is the same test for surfaces that are not Hono routes (gRPC calls
 * carry the cookie as metadata). The auth routes themselves, which need the whole session (its
 * hash, its sign-in time), take it from `activeSession` / `signedInSession`.
 */
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../errors.ts';
import { findActiveSession, sessionIdFromCookieHeader, type ActiveSession, type AuthDeps } from '../application/index.ts';
import type { AssuranceLevel } from '../domain/events.ts';

/** Who a request comes from, as a route may know it: never the email (it is personal data a route rarely needs). */
export interface SignedInUser {
  userId: string;
  /** NIST SP 800-63B authenticator assurance level of the sign-in: `aal2` after a passkey with user verification */
  aal: AssuranceLevel;
  /** RFC 8176 method values */
  amr: readonly string[];
}

/** What a route asks of its caller: any session, or a session of at least this assurance level. */
export type SessionRequirement = 'session' | AssuranceLevel;

/** The Hono variables the guards set: `c.var.user`. */
export interface SessionVariables {
  user: SignedInUser;
}

const STRENGTH: Record<AssuranceLevel, number> = { aal1: 1, aal2: 2 };

const SIGN_IN_FIRST = 'sign in first';
const STRONGER_SIGN_IN = 'sign in with a passkey first (this needs a two-factor sign-in, aal2)';

export interface SessionGuards {
  requireSession(): MiddlewareHandler<{ Variables: SessionVariables }>;
  requireAal(level: AssuranceLevel): MiddlewareHandler<{ Variables: SessionVariables }>;
  /** The signed-in user of a request's headers, or undefined (no refusal): what a route that serves anyone may record. */
  userOf(headers: Headers): Promise<SignedInUser | undefined>;
  /** The user when they meet `requirement`; else throws AppError('unauthorized'). */
  check(headers: Headers, requirement: SessionRequirement): Promise<SignedInUser>;
}

/** The active session of a request's cookie, or undefined. */
export function activeSession(deps: AuthDeps, headers: Headers): Promise<ActiveSession | undefined> {
  return findActiveSession(deps, sessionIdFromCookieHeader(headers.get('cookie'), deps.config.cookieSecure));
}

/** The active session of a request's cookie; else throws AppError('unauthorized'). */
export async function signedInSession(deps: AuthDeps, headers: Headers): Promise<ActiveSession> {
  const session = await activeSession(deps, headers);
  if (!session) throw new AppError('unauthorized', SIGN_IN_FIRST);
  return session;
}

export function sessionGuards(deps: AuthDeps): SessionGuards {
  const userOf = async (headers: Headers): Promise<SignedInUser | undefined> => {
    const session = await activeSession(deps, headers);
    return session && { userId: session.userId, aal: session.aal, amr: session.amr };
  };
  const check = async (headers: Headers, requirement: SessionRequirement): Promise<SignedInUser> => {
    const user = await userOf(headers);
    if (user === undefined) throw new AppError('unauthorized', SIGN_IN_FIRST);
    if (requirement !== 'session' && STRENGTH[user.aal] < STRENGTH[requirement]) throw new AppError('unauthorized', STRONGER_SIGN_IN);
    return user;
  };
  const guard =
    (requirement: SessionRequirement): MiddlewareHandler<{ Variables: SessionVariables }> =>
    async (c, next) => {
      c.set('user', await check(c.req.raw.headers, requirement));
      await next();
    };
  return { requireSession: () => guard('session'), requireAal: (level) => guard(level), userOf, check };
}
