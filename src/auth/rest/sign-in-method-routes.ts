/**
 * The signed-in account's sign-in methods (docs/auth.md "Sign-in methods"):
 *   GET  /api/auth/sign-in-methods          → { methods: [{ method, kind, id?, name?, removable, refusal? }] }
 *   POST /api/auth/sign-in-methods/remove   JSON or form { method, password? } → 200 { removed, sessions_ended };
 *                                           a form post: 303 to /dashboard with the notice, or back with the refusal
 * `method` is `password`, `provider:<id>` or `passkey:<id>`. Re-authentication as for account
 * deletion (the password, or a provider or passkey sign-in of the last 5 minutes): else 403. The
 * last way in: 409 `conflict`. Without a session: 401 (a form: 303 to /login). The write passes the
 * same Origin / Sec-Fetch-Site check as every other mutating auth route.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import { parseMethodName } from '../domain/ways-in.ts';
import { PASSWORD_MAX_INPUT_UNITS } from '../domain/password-policy.ts';
import { defaultProviderLabel } from '../oauth/provider-label.ts';
import { removeSignInMethod, signInMethodsView, type AuthDeps } from '../application/index.ts';
import { formOrJson } from './form-or-json.ts';
import { readInput } from './input.ts';
import { signedInSession } from './require-session.ts';

export const SIGN_IN_METHOD_PATHS = { list: '/api/auth/sign-in-methods', remove: '/api/auth/sign-in-methods/remove' } as const;

/** The re-authentication field: the account's password; empty or left out after a fresh sign-in. */
export const ReauthPasswordSchema = v.optional(
  v.pipe(
    v.string('password must be a string'),
    v.maxLength(PASSWORD_MAX_INPUT_UNITS, 'password is too long'),
    v.description('the account password (re-authentication); leave it out right after a provider or passkey sign-in (at most 5 minutes old)'),
  ),
);

export const SignInMethodRemovalSchema = v.object(
  {
    method: v.pipe(
      v.string('method must be a string'),
      v.regex(/^(password|provider:[a-z0-9_]{1,32}|passkey:[0-9a-f]{64})$/, 'method must be "password", "provider:<id>" or "passkey:<id>"'),
      v.description('the method to remove, as `method` in the list names it: `password`, `provider:<id>` or `passkey:<id>`'),
    ),
    password: ReauthPasswordSchema,
  },
  'body must be an object with the string "method"',
);

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A provider's label as the operator configured it. */
export function providerLabelOf(deps: AuthDeps): (id: string) => string {
  return (id) => deps.offeredProviders?.().find((p) => p.id === id)?.label ?? defaultProviderLabel(id);
}

/** The removal's re-authentication and the client (its password attempts count as a login's). */
export function reauthOf(c: Context, deps: AuthDeps, password: string | undefined) {
  return { password: password === '' ? undefined : password, client: clientAddress(c.req.raw.headers, deps.config.clientAddressTrusted) };
}

export function signInMethodRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
  const app = new Hono();
  const route = formOrJson(deps);

  app.get(SIGN_IN_METHOD_PATHS.list, async (c) => c.json({ methods: (await signInMethodsView(deps, await signedInSession(deps, c.req.raw.headers))).methods }, 200, NO_STORE));

  app.post(
    SIGN_IN_METHOD_PATHS.remove,
    guards.limit,
    guards.sameSite,
    route.signedIn({ path: '/dashboard', form: 'methods' }, async (c, { session }) => {
      const { input } = await readInput(c, SignInMethodRemovalSchema);
      const method = parseMethodName(input.method);
      if (!method) throw new AppError('validation', 'method must be "password", "provider:<id>" or "passkey:<id>"');
      const done = await removeSignInMethod(deps, session, method, reauthOf(c, deps, input.password), providerLabelOf(deps));
      const notice = method.kind === 'provider' ? 'provider_unlinked' : method.kind === 'passkey' ? 'passkey_removed' : 'password_removed';
      return { json: { removed: done.removed, sessions_ended: done.sessionsEnded }, see: `/dashboard?notice=${notice}` };
    }),
  );
  return app;
}
