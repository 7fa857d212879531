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
import { clearedSessionCookie, deleteAccount, type ActiveSession, type AuthDeps } from '../application/index.ts';
import { formOrJson } from './form-or-json.ts';
import { signedInSession } from './require-session.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

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
  const route = formOrJson(deps);

  const remove = async (c: Context, current: ActiveSession, form: boolean) => {
    const password = await passwordFrom(c, form);
    const deleted = await deleteAccount(deps, current, { password, client: clientAddress(c.req.raw.headers, deps.config.clientAddressTrusted) });
    logger.log('info', 'account deleted', { code: 'auth_account_deleted', user_id: current.userId, removed_streams: deleted.removedStreams });
    c.header('Set-Cookie', clearedSessionCookie(deps.config.cookieSecure));
  };

  app.delete(ACCOUNT_PATHS.account, guards.limit, guards.sameSite, async (c) => {
    await remove(c, await signedInSession(deps, c.req.raw.headers), false);
    return c.body(null, 204, NO_STORE);
  });

  /** A refused re-authentication is logged in the deletion's own words. */
  const logsOwn = (failure: AppError): boolean => {
    if (failure.code !== 'forbidden') return false;
    logger.log('info', 'account deletion refused', { code: 'auth_account_deletion_refused', reason: 'reauthentication' });
    return true;
  };

  // Only the /dashboard form posts here: whatever its Content-Type, the answer is a page.
  app.post(
    ACCOUNT_PATHS.deleteForm,
    guards.limit,
    guards.sameSite,
    route.signedIn(
      { path: '/dashboard', form: 'delete' },
      async (c, { session }) => {
        await remove(c, session, true);
        return { json: null, see: '/login?notice=account_deleted' };
      },
      { formOnly: true, logsOwn },
    ),
  );
  return app;
}
