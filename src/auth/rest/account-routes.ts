/**
 * Account deletion (docs/auth.md, docs/storage.md "Account deletion"):
 *   DELETE /api/auth/account          JSON `{ "password": "…" }` (or no body after a provider sign-in
 *                                     in the last 5 minutes) → 204, the session cookie cleared
 *   POST   /api/auth/account/delete   the /dashboard form (field `password`) → 303 to /login, or back
 *                                     to /dashboard with the refusal (./form-return.ts) when it fails
 * Without a session: 401 `unauthorized`; without re-authentication: 403 `forbidden`. Both pass the
 * same Origin / Sec-Fetch-Site check as every other mutating auth route.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import { errorResponse } from '../../http/errors.ts';
import { refusedFormUrl } from './form-return.ts';
import { clearedSessionCookie, deleteAccount, findActiveSession, sessionIdFromCookieHeader, type AuthDeps } from '../application/index.ts';

export const ACCOUNT_PATHS = { account: '/api/auth/account', deleteForm: '/api/auth/account/delete' } as const;

/** The deletion's body; also the wire shape the OpenAPI document publishes. */
export const AccountDeletionSchema = v.object(
  {
    password: v.optional(v.pipe(v.string('password must be a string'), v.description('the account password; omit it after a provider or passkey sign-in in the last 5 minutes'))),
  },
  'body must be a JSON object with an optional string "password"',
);

async function passwordFrom(c: Context, form: boolean): Promise<string | undefined> {
  let raw: unknown = {};
  if (form) {
    const body = await c.req.parseBody().catch((error: unknown) => {
      throw new AppError('validation', 'request body is not a valid form', { cause: error });
    });
    raw = Object.fromEntries(Object.entries(body).filter(([, value]) => typeof value === 'string' && value !== ''));
  } else if ((c.req.header('content-length') ?? '0') !== '0' || c.req.header('transfer-encoding')) {
    if ((c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') throw new AppError('unsupported_media_type', 'send application/json');
    raw = await c.req.json().catch((error: unknown) => {
      throw new AppError('validation', 'request body is not valid JSON', { cause: error });
    });
  }
  const result = v.safeParse(AccountDeletionSchema, raw);
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid body');
  return result.output.password;
}

export function accountRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
  const app = new Hono();
  const { logger } = deps.platform;

  const remove = async (c: Context, form: boolean) => {
    const current = await findActiveSession(deps, sessionIdFromCookieHeader(c.req.header('cookie'), deps.config.cookieSecure));
    if (!current) throw new AppError('unauthorized', 'sign in first');
    const password = await passwordFrom(c, form);
    const deleted = await deleteAccount(deps, current, { password, client: clientAddress(c.req.raw.headers, deps.config.clientAddressTrusted) });
    logger.log('info', 'account deleted', { code: 'auth_account_deleted', user_id: current.userId, removed_streams: deleted.removedStreams });
    c.header('Set-Cookie', clearedSessionCookie(deps.config.cookieSecure));
    c.header('Cache-Control', 'no-store');
  };

  app.delete(ACCOUNT_PATHS.account, guards.limit, guards.sameSite, async (c) => {
    await remove(c, false);
    return c.body(null, 204);
  });

  app.post(ACCOUNT_PATHS.deleteForm, guards.limit, guards.sameSite, async (c) => {
    try {
      await remove(c, true);
    } catch (error) {
      const failure = AppError.from(error);
      c.header('Cache-Control', 'no-store');
      if (failure.code === 'unauthorized') return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 303);
      if (failure.code === 'forbidden') logger.log('info', 'account deletion refused', { code: 'auth_account_deletion_refused', reason: 'reauthentication' });
      else void errorResponse(c, failure, logger);
      return c.redirect(refusedFormUrl('/dashboard', 'delete', failure, deps.platform.now()), 303);
    }
    return c.redirect('/login?notice=account_deleted', 303);
  });
  return app;
}
