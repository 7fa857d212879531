/**
 * The explicit JSON REST routes of the counter. Mount with `app.route('/', counterRestRoutes(deps))`.
 * Every route answers with a CounterView or the error envelope; other methods on these paths get 405.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, storeFailure } from '../errors.ts';
import type { CounterDeps } from './application/deps.ts';
import { executeCounterCommand } from './application/execute-command.ts';
import { getCounterView } from './application/get-view.ts';
import type { CounterView } from './application/view.ts';
import { errorResponse, methodNotAllowedResponse } from './http-errors.ts';
import { readAmountFromJsonBody, readAmountFromQuery } from './rest-input.ts';

export const COUNTER_REST_PATHS = {
  view: '/api/counter/view',
  increment: '/api/counter/increment',
  decrement: '/api/counter/decrement',
  reset: '/api/counter/reset',
} as const;

/** 256 KiB: far above any valid command body, low enough to bound memory per request. */
export const MAX_BODY_BYTES = 256 * 1024;

type Handler = (c: Context) => Response | Promise<Response>;

export function counterRestRoutes(deps: CounterDeps): Hono {
  const app = new Hono();
  const logger = deps.platform.logger;

  /** Turns any failure into the envelope, logged with its code. */
  const guarded =
    (handler: Handler): Handler =>
    async (c) => {
      try {
        return await handler(c);
      } catch (error) {
        return errorResponse(c, storeFailure(error), logger);
      }
    };

  // Hono's bodyLimit trusts Content-Length when present and otherwise counts streamed bytes.
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => errorResponse(c, new AppError('payload_too_large', 'request body exceeds 256 KiB'), logger),
  });

  const ok = (c: Context, view: CounterView): Response => c.json(view, 200, { 'Cache-Control': 'no-store' });

  app.get(COUNTER_REST_PATHS.view, guarded((c) => ok(c, getCounterView(deps))));
  app.post(
    COUNTER_REST_PATHS.increment,
    limit,
    guarded(async (c) => ok(c, await executeCounterCommand(deps, { type: 'increment', amount: await readAmountFromJsonBody(c) }))),
  );
  app.post(
    COUNTER_REST_PATHS.decrement,
    limit,
    guarded(async (c) => ok(c, await executeCounterCommand(deps, { type: 'decrement', amount: readAmountFromQuery(c) }))),
  );
  app.post(COUNTER_REST_PATHS.reset, limit, guarded(async (c) => ok(c, await executeCounterCommand(deps, { type: 'reset' }))));

  // Registered last, so they only see methods the routes above did not take (HEAD follows GET).
  app.all(COUNTER_REST_PATHS.view, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  for (const path of [COUNTER_REST_PATHS.increment, COUNTER_REST_PATHS.decrement, COUNTER_REST_PATHS.reset]) {
    app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  }

  app.onError((error, c) => errorResponse(c, AppError.from(error), logger));
  return app;
}
