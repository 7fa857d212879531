/**
 * What the routes of the mailed-link flows share (./mail-routes.ts, ./email-change-routes.ts):
 * their guards, 404 while no mail is configured, a link's input read as a sign-in attempt, and the
 * group's closing (405 on other methods, refusals in the error envelope, never stored).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import { throttle, type AuthDeps } from '../application/index.ts';
import type { Call } from './form-or-json.ts';
import { readInput } from './input.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

export interface MailRouteKit {
  /** The guards of a signed-in form: the body limit and the same-site check. */
  readonly write: readonly [MiddlewareHandler, MiddlewareHandler];
  /** The same, and 404 `not_found` while no mail is configured (AUTH_PUBLIC_BASE_URL unset). */
  readonly mailed: readonly [MiddlewareHandler, MiddlewareHandler, MiddlewareHandler];
  client(c: Context): string;
  /** A mailed link's post: throttled as a sign-in attempt, its token kept for the page a refused form goes back to. */
  linkInput<TSchema extends v.GenericSchema<unknown, { token: string }>>(c: Context, call: Call, schema: TSchema): Promise<v.InferOutput<TSchema>>;
  /** After the group's routes: 405 with `Allow: POST` on `paths`, and the group's refusals never stored. */
  close(app: Hono, paths: Record<string, string>): Hono;
}

export function mailRouteKit(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): MailRouteKit {
  const { config } = deps;
  const { logger } = deps.platform;
  const mailOn: MiddlewareHandler = async (_c, next) => {
    if (!config.mail) throw new AppError('not_found', 'mail is not configured on this service');
    await next();
  };
  const client = (c: Context) => clientAddress(c.req.raw.headers, config.clientAddressTrusted);
  return {
    write: [guards.limit, guards.sameSite],
    mailed: [guards.limit, guards.sameSite, mailOn],
    client,
    async linkInput(c, call, schema) {
      await throttle(deps, 'login', client(c));
      const { input } = await readInput(c, schema);
      call.keep({ token: input.token });
      return input;
    },
    close(app, paths) {
      for (const path of Object.values(paths)) app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
      app.onError((error, c) => errorResponse(c, AppError.from(error), logger, NO_STORE));
      return app;
    },
  };
}
