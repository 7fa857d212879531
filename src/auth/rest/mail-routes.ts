/**
 * The routes of the mailed-link flows (docs/auth.md, "Email verification and password reset"):
 *   POST /api/auth/password/forgot              { email } → 202, the same for any address
 *   POST /api/auth/password/reset               { token, password, remove_passkeys? } → 200; every session of the account ends
 *   POST /api/auth/password/change              { current_password, new_password, remove_passkeys? } (signed in) → 200; the other sessions end
 *   POST /api/auth/email/verify                 { token } → 200; the address is verified
 *   POST /api/auth/email/verification/resend    (signed in) → 202; a new link is mailed (429 past a few an hour)
 * Each takes JSON or an HTML form post (the pages, without JavaScript): a form gets a 303 to the
 * page that shows the outcome, or, refused, back to its own page with the refusal (./form-return.ts). Every one passes the Origin / Sec-Fetch-Site check of the auth
 * forms. Without AUTH_PUBLIC_BASE_URL there is no mail: the mail routes answer 404.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { changePassword, clearedSessionCookie, requestPasswordReset, resendVerification, resetPassword, throttle, verifyEmail, type AuthDeps } from '../application/index.ts';
import { MAIL_LINK_PATHS } from '../application/mail-links.ts';
import { listPasskeys } from '../passkeys/manage.ts';
import { issueRemovalLinkAfterReset } from '../passkeys/removal-link.ts';
import { formOrJson, type FormPage } from './form-or-json.ts';
import { readInput } from './input.ts';
import { mailRouteKit } from './mail-route-kit.ts';
import { RemovePasskeysField, wantsPasskeysRemoved } from './remove-passkeys-field.ts';
import { activeSession } from './require-session.ts';

export const MAIL_PATHS = {
  forgot: '/api/auth/password/forgot',
  reset: '/api/auth/password/reset',
  change: '/api/auth/password/change',
  verify: '/api/auth/email/verify',
  resend: '/api/auth/email/verification/resend',
} as const;

const text = (name: string) => v.pipe(v.string(`${name} must be a string`), v.maxLength(4096, `${name} is too long`));
export const ForgotSchema = v.object({ email: text('email') }, 'body must be a JSON object with string "email"');
export const ResetSchema = v.object(
  { token: text('token'), password: text('password'), remove_passkeys: RemovePasskeysField },
  'body must be a JSON object with string "token" and "password"',
);
export const ChangeSchema = v.object(
  { current_password: text('current_password'), new_password: text('new_password'), remove_passkeys: RemovePasskeysField },
  'body must be a JSON object with string "current_password" and "new_password"',
);
export const VerifySchema = v.object({ token: text('token') }, 'body must be a JSON object with string "token"');

/** The one answer to "forgot password", whatever the address. */
export const RESET_REQUESTED = {
  status: 'accepted',
  message: 'If an account uses this address, a link to reset its password is on its way. It works for 30 minutes.',
} as const;

const FORM_PAGES = {
  forgot: { path: '/forgot-password', form: 'forgot' },
  reset: { path: '/reset-password', form: 'reset' },
  verify: { path: '/verify-email', form: 'verify' },
  change: { path: '/dashboard', form: 'password' },
  resend: { path: '/dashboard', form: 'verification' },
} as const satisfies Record<string, FormPage>;

export function mailRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
  const app = new Hono();
  const kit = mailRouteKit(deps, guards);
  const route = formOrJson(deps);

  app.post(
    MAIL_PATHS.forgot,
    ...kit.mailed,
    route.anyone(
      FORM_PAGES.forgot,
      async (c, call) => {
        await throttle(deps, 'login', kit.client(c));
        const { input } = await readInput(c, ForgotSchema);
        call.keep({ email: input.email });
        await requestPasswordReset(deps, input.email, kit.client(c));
        return { json: RESET_REQUESTED, status: 202, see: '/forgot-password?notice=sent' };
      },
      { echo: '/forgot-password' },
    ),
  );

  app.post(
    MAIL_PATHS.reset,
    ...kit.mailed,
    route.anyone(FORM_PAGES.reset, async (c, call) => {
      const input = await kit.linkInput(c, call, ResetSchema);
      const done = await resetPassword(deps, input.token, input.password, await activeSession(deps, c.req.raw.headers), {
        removePasskeys: wantsPasskeysRemoved(input.remove_passkeys),
      });
      // This browser's session ended with the others: its cookie goes too.
      c.header('Set-Cookie', clearedSessionCookie(deps.config.cookieSecure));
      const passkeys = listPasskeys(deps, done.userId);
      return {
        json: { status: 'password_reset', sessions_ended: done.sessionsEnded, passkeys_removed: done.passkeysRemoved, passkeys },
        // The passkeys that survived the reset, on a page with a form to remove them (its link proves this mailbox).
        see: async () => {
          const review = passkeys.length > 0 ? await issueRemovalLinkAfterReset(deps, done.userId, done.emailHash) : undefined;
          return review === undefined ? '/login?notice=password_reset' : `${MAIL_LINK_PATHS.passkeys}?token=${review}&after=reset`;
        },
      };
    }),
  );

  app.post(
    MAIL_PATHS.change,
    ...kit.write,
    route.signedIn(FORM_PAGES.change, async (c, { session }) => {
      const { input } = await readInput(c, ChangeSchema);
      const done = await changePassword(deps, session, input.current_password, input.new_password, kit.client(c), { removePasskeys: wantsPasskeysRemoved(input.remove_passkeys) });
      return { json: { status: 'password_changed', sessions_ended: done.sessionsEnded, passkeys_removed: done.passkeysRemoved }, see: '/dashboard?notice=password_changed' };
    }),
  );

  app.post(
    MAIL_PATHS.verify,
    ...kit.mailed,
    route.anyone(FORM_PAGES.verify, async (c, call) => {
      const input = await kit.linkInput(c, call, VerifySchema);
      const current = await activeSession(deps, c.req.raw.headers);
      await verifyEmail(deps, input.token, current);
      return { json: { status: 'email_verified' }, see: current ? '/dashboard?notice=email_verified' : '/login?notice=email_verified' };
    }),
  );

  // Any body is ignored.
  app.post(
    MAIL_PATHS.resend,
    ...kit.mailed,
    route.signedIn(FORM_PAGES.resend, async (c, { session }) => {
      await resendVerification(deps, session, kit.client(c));
      return { json: { status: 'accepted' }, status: 202, see: '/dashboard?notice=verification_sent' };
    }),
  );

  return kit.close(app, MAIL_PATHS);
}
