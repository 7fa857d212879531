/**
 * The routes of changing the email address (docs/auth.md, "Changing the email address"):
 *   POST /api/auth/email/change           { email, password? } (signed in) → 202; a link is mailed to the new address
 *   POST /api/auth/email/change/cancel    (signed in) → 200; the pending change and its link are dropped
 *   POST /api/auth/email/change/confirm   { token } → 200; the account's address is the new one
 *   POST /api/auth/email/change/undo      { token } → 200; every session ends, the old address is restored while free
 * Each takes JSON or an HTML form post: a form gets a 303 to the page that shows the outcome, or,
 * refused, back to its own page with the refusal (./form-return.ts). Every one passes the Origin /
 * Sec-Fetch-Site check of the auth forms. Without AUTH_PUBLIC_BASE_URL there is no mail: 404.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { cancelEmailChange, clearedSessionCookie, confirmEmailChange, requestEmailChange, undoEmailChange, type AuthDeps } from '../application/index.ts';
import { formOrJson, type FormPage } from './form-or-json.ts';
import { readInput } from './input.ts';
import { mailRouteKit } from './mail-route-kit.ts';
import { activeSession } from './require-session.ts';

export const EMAIL_CHANGE_PATHS = {
  change: '/api/auth/email/change',
  cancel: '/api/auth/email/change/cancel',
  confirm: '/api/auth/email/change/confirm',
  undo: '/api/auth/email/change/undo',
} as const;

/** The pages the mailed links open (src/auth/pages/email-change-pages.tsx). */
export const EMAIL_CHANGE_PAGES = { confirm: '/confirm-email-change', undo: '/undo-email-change' } as const;

const text = (name: string) => v.pipe(v.string(`${name} must be a string`), v.maxLength(4096, `${name} is too long`));
export const EmailChangeSchema = v.object(
  { email: text('email'), password: v.optional(text('password')) },
  'body must be a JSON object with string "email" and an optional string "password"',
);
export const EmailChangeTokenSchema = v.object({ token: text('token') }, 'body must be a JSON object with string "token"');

const FORM_PAGES = {
  change: { path: '/dashboard', form: 'email_change' },
  cancel: { path: '/dashboard', form: 'email_change' },
  confirm: { path: EMAIL_CHANGE_PAGES.confirm, form: 'confirm' },
  undo: { path: EMAIL_CHANGE_PAGES.undo, form: 'undo' },
} as const satisfies Record<string, FormPage>;

export function emailChangeRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
  const app = new Hono();
  const kit = mailRouteKit(deps, guards);
  const route = formOrJson(deps);

  app.post(
    EMAIL_CHANGE_PATHS.change,
    ...kit.mailed,
    route.signedIn(FORM_PAGES.change, async (c, { session }) => {
      const { input } = await readInput(c, EmailChangeSchema);
      const pending = await requestEmailChange(deps, session, input.email, input.password === '' ? undefined : input.password, kit.client(c));
      return { json: { status: 'accepted', email: pending.email, expires_at: new Date(pending.expiresAt).toISOString() }, status: 202, see: '/dashboard?notice=email_change_sent' };
    }),
  );

  // Any body is ignored, as for "resend".
  app.post(
    EMAIL_CHANGE_PATHS.cancel,
    ...kit.mailed,
    route.signedIn(FORM_PAGES.cancel, async (_c, { session }) => {
      await cancelEmailChange(deps, session.userId);
      return { json: { status: 'cancelled' }, see: '/dashboard?notice=email_change_cancelled' };
    }),
  );

  app.post(
    EMAIL_CHANGE_PATHS.confirm,
    ...kit.mailed,
    route.anyone(FORM_PAGES.confirm, async (c, call) => {
      const input = await kit.linkInput(c, call, EmailChangeTokenSchema);
      const current = await activeSession(deps, c.req.raw.headers);
      const changed = await confirmEmailChange(deps, input.token, current);
      return { json: { status: 'email_changed', email: changed.email }, see: current ? '/dashboard?notice=email_changed' : '/login?notice=email_changed' };
    }),
  );

  app.post(
    EMAIL_CHANGE_PATHS.undo,
    ...kit.mailed,
    route.anyone(FORM_PAGES.undo, async (c, call) => {
      const input = await kit.linkInput(c, call, EmailChangeTokenSchema);
      const undone = await undoEmailChange(deps, input.token, await activeSession(deps, c.req.raw.headers));
      // Every session of the account ended, this browser's too when it was one of them.
      c.header('Set-Cookie', clearedSessionCookie(deps.config.cookieSecure));
      return {
        json: { status: 'email_change_undone', address_restored: undone.restored, sessions_ended: undone.sessionsEnded },
        see: `/login?notice=${undone.restored ? 'email_change_undone' : 'email_change_undone_kept'}`,
      };
    }),
  );

  return kit.close(app, EMAIL_CHANGE_PATHS);
}
