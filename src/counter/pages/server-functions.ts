/**
 * The browser UI's server functions (docs/ui.md, "Server functions"): the query, and one per entry
 * of the command table (commands.ts), each through the shared command routine. Each answers with
 * a CounterView, or with a server-function error (the error envelope, status from the shared
 * table) after logging it.
 *
 *   GET  /api/get_counter_view                          → CounterView
 *   POST /api/<name>_count  {its fields} (JSON)         → CounterView   (increment_count, decrement_count, reset_count)
 *
 * A command without fields reads no body. The browser calls them through the client derived from
 * the same table (static/client/server-functions.ts).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, failureDetail } from '../../errors.ts';
import { COUNTER_CHANGED } from '../application/counter-changed.ts';
import { executeCounterCommand } from '../application/execute-command.ts';
import { readCounterView } from '../application/get-view.ts';
import { validatedSurrogateHeaders } from '../../http/surrogate.ts';
import type { CounterView } from '../application/view.ts';
import { errorEnvelope, statusForCode } from '../../http/errors.ts';
import { MAX_BODY_BYTES } from '../rest.ts';
import { domainCommand, inputFromJsonBody, takesInput } from '../command-input.ts';
import { COMMAND_NAMES, serverFunctionName, serverFunctionPath, VIEW_SERVER_FUNCTION } from '../commands.ts';
import { cachedView, commandOperation, COUNTER_REQUEST_EXAMPLES, COUNTER_SCHEMAS, IF_NONE_MATCH, READ_ERRORS } from '../command-operations.ts';
import type { ApiContract } from '../../http/operation.ts';
import { profileMark } from '../../platform/profile.ts';
import { sameSiteOnly } from '../../http/same-site.ts';
import { ANYONE_ANONYMOUS, type CounterSurfaceDeps } from '../write-access.ts';

/** The operations of the server functions: the query, then one per command (405s for the rest: routes.tsx). */
export const SERVER_FUNCTION_CONTRACT: ApiContract = {
  schemas: COUNTER_SCHEMAS,
  requestExamples: COUNTER_REQUEST_EXAMPLES,
  operations: [
    {
      method: 'get',
      path: VIEW_SERVER_FUNCTION.path,
      operationId: VIEW_SERVER_FUNCTION.name,
      tag: 'server functions',
      summary: 'Server function: read the counter',
      parameters: [IF_NONE_MATCH],
      success: cachedView('the current CounterView'),
      errors: READ_ERRORS,
    },
    ...COMMAND_NAMES.map((name) => commandOperation(name, 'server function')),
  ],
};

const FUNCTION_BY_PATH = new Map<string, string>([
  [VIEW_SERVER_FUNCTION.path, VIEW_SERVER_FUNCTION.name],
  ...COMMAND_NAMES.map((name) => [serverFunctionPath(name), serverFunctionName(name)] as const),
]);

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Any thrown value as the AppError a server function reports. */
function asAppError(error: unknown): AppError {
  return AppError.fromStore(error, COUNTER_CHANGED);
}

export function serverFunctionRoutes(deps: CounterSurfaceDeps) {
  const logger = deps.platform.logger;
  const access = deps.writeAccess ?? ANYONE_ANONYMOUS;

  /** Logs the failure with its code (never the body), then answers with the error envelope. */
  const fail = (c: Context, name: string, error: AppError) => {
    const status = statusForCode(error.code);
    const fields: Record<string, unknown> = { code: error.code, status, function: name };
    if (status >= 500) logger.log('error', 'server function failed', { ...fields, detail: failureDetail(error) });
    else logger.log('info', 'server function rejected', fields);
    return c.json(errorEnvelope(error), status, NO_STORE);
  };

  const run = async (c: Context, name: string, work: () => CounterView | Promise<CounterView>) => {
    try {
      GUEST_PROFILE: profileMark('routing, middleware');
      const view = await work();
      const response = c.json(view, 200, NO_STORE);
      GUEST_PROFILE: profileMark('view JSON, response');
      return response;
    } catch (error) {
      return fail(c, name, asAppError(error));
    }
  };

  const limit = (name: string) =>
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => fail(c, name, new AppError('payload_too_large', 'request body exceeds 256 KiB')),
    });

  // Same cross-site refusal as the REST POSTs and the auth forms (src/http/same-site.ts).
  const sameSite = sameSiteOnly(deps.publicOrigin);

  const app = new Hono();
  // The host may answer repeats itself while the counter stream stays where it was read.
  app.get(VIEW_SERVER_FUNCTION.path, (c) => {
    try {
      const { view, source } = readCounterView(deps);
      return c.json(view, 200, { ...NO_STORE, ...validatedSurrogateHeaders([source]) });
    } catch (error) {
      return fail(c, VIEW_SERVER_FUNCTION.name, asAppError(error));
    }
  });
  for (const name of COMMAND_NAMES) {
    const functionName = serverFunctionName(name);
    const withInput = takesInput(name);
    app.post(serverFunctionPath(name), sameSite, limit(functionName), (c) =>
      run(c, functionName, async () => {
        const sender = await access.sender(c.req.raw.headers);
        const command = domainCommand(name, withInput ? await inputFromJsonBody(c, name) : {});
        return executeCounterCommand(deps, command, sender);
      }),
    );
  }
  // Failures raised before a handler runs (the cross-site check) arrive here.
  app.onError((error, c) => fail(c, FUNCTION_BY_PATH.get(c.req.path) ?? 'unknown', asAppError(error)));
  return app;
}
