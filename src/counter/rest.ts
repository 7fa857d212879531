/**
 * The explicit JSON REST routes of the counter: `GET /api/counter/view` and one
 * `POST /api/counter/<name>` per entry of the command table (commands.ts), which says where each
 * reads its input. Mount with `app.route('/', counterRestRoutes(deps))` in an app whose onError
 * answers `errorResponse(c, AppError.from(error), logger)` (src/app.ts). Every route answers with a
 * CounterView or the error envelope; other methods on these paths get 405.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../errors.ts';
import { COUNTER_CHANGED } from './application/counter-changed.ts';
import { executeCounterCommand } from './application/execute-command.ts';
import { readCounterView } from './application/get-view.ts';
import type { CounterView } from './application/view.ts';
import { sameSiteOnly } from '../http/same-site.ts';
import { errorResponse, readOnlyRoute } from '../http/errors.ts';
import { refuseOtherMethods, type ApiContract } from '../http/operation.ts';
import { cachedView, commandOperation, COUNTER_REQUEST_EXAMPLES, COUNTER_SCHEMAS, IF_NONE_MATCH, READ_ERRORS } from './command-operations.ts';
import { validatedSurrogateHeaders } from '../http/surrogate.ts';
import { domainCommand, inputFromJsonBody, inputFromQuery, takesInput, type CommandInputValues } from './command-input.ts';
import { COMMAND_NAMES, commandSpec, restCommandPath, type CommandName } from './commands.ts';
import { profileMark } from '../platform/profile.ts';
import { ANYONE_ANONYMOUS, type CounterSurfaceDeps } from './write-access.ts';

export const COUNTER_VIEW_PATH = '/api/counter/view';

const COMMAND_OPERATIONS = COMMAND_NAMES.map((name) => commandOperation(name, 'rest'));

/** The operations these routes serve: the view, then one per command. */
export const COUNTER_REST_CONTRACT: ApiContract = {
  schemas: COUNTER_SCHEMAS,
  requestExamples: COUNTER_REQUEST_EXAMPLES,
  operations: [
    {
      method: 'get',
      path: COUNTER_VIEW_PATH,
      operationId: 'getCounterView',
      tag: 'counter',
      summary: 'Read the counter',
      parameters: [IF_NONE_MATCH],
      success: cachedView('the current CounterView'),
      errors: READ_ERRORS,
    },
    ...COMMAND_OPERATIONS,
  ],
};

/** 256 KiB: far above any valid command body, low enough to bound memory per request. */
export const MAX_BODY_BYTES = 256 * 1024;

type Handler = (c: Context) => Response | Promise<Response>;

/** How the REST route of `name` reads its input: from the JSON body, from the query, or not at all. */
function restInputReader(name: CommandName): (c: Context) => CommandInputValues | Promise<CommandInputValues> {
  if (!takesInput(name)) return () => ({});
  return commandSpec(name).restInput === 'query' ? (c) => inputFromQuery(c, name) : (c) => inputFromJsonBody(c, name);
}

export function counterRestRoutes(deps: CounterSurfaceDeps): Hono {
  const app = new Hono();
  const logger = deps.platform.logger;
  const access = deps.writeAccess ?? ANYONE_ANONYMOUS;

  /**
   * Turns any failure, thrown or rejected, into the envelope, logged with its code. A handler
   * that answers synchronously (GET view) stays synchronous: no promises on that path.
   */
  const guarded =
    (handler: Handler): Handler =>
    (c) => {
      const fail = (error: unknown) => errorResponse(c, AppError.fromStore(error, COUNTER_CHANGED), logger);
      try {
        const result = handler(c);
        return result instanceof Promise ? result.catch(fail) : result;
      } catch (error) {
        return fail(error);
      }
    };

  // Hono's bodyLimit trusts Content-Length when present and otherwise counts streamed bytes.
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => errorResponse(c, new AppError('payload_too_large', 'request body exceeds 256 KiB'), logger),
  });

  const ok = (c: Context, view: CounterView): Response => {
    const response = c.json(view, 200, { 'Cache-Control': 'no-store' });
    GUEST_PROFILE: profileMark('view JSON, response');
    return response;
  };

  // The view path has one handler for every method (Hono dispatches HEAD as GET with the method
  // left HEAD): a separate 405 route on the same path would make every GET go through Hono's
  // middleware composition (promises) instead of its one-handler fast path.
  // The host may answer repeats of this GET itself while the counter stream stays where it was read.
  const view = guarded((c) => {
    const { view: current, source } = readCounterView(deps);
    return c.json(current, 200, { 'Cache-Control': 'no-store', ...validatedSurrogateHeaders([source]) });
  });
  app.all(COUNTER_VIEW_PATH, readOnlyRoute(view, logger));
  // A cross-site page must not change (or reset) the counter: POSTs pass the shared Origin /
  // Sec-Fetch-Site check; non-browser clients (curl, no such headers) are unaffected.
  const sameSite = sameSiteOnly(deps.publicOrigin);
  for (const name of COMMAND_NAMES) {
    const readInput = restInputReader(name);
    app.post(
      restCommandPath(name),
      sameSite,
      limit,
      guarded(async (c) => {
        GUEST_PROFILE: profileMark('body limit');
        const sender = await access.sender(c.req.raw.headers);
        GUEST_PROFILE: profileMark('write access');
        const command = domainCommand(name, await readInput(c));
        return ok(c, await executeCounterCommand(deps, command, sender));
      }),
    );
  }

  // Registered last, so they only see methods the routes above did not take.
  refuseOtherMethods(app, COMMAND_OPERATIONS, logger);

  // No onError here: Hono's `route()` wraps every route of a sub-app that has its own error
  // handler in an async composition, which alone would take GET view off the fast path. The
  // handlers answer their own failures (guarded); anything else (the body limit failing to read
  // a broken body) reaches the parent's onError, which answers with the same envelope (src/app.ts).
  return app;
}
