/**
 * The browser UI's server functions (docs/ui.md, "Server functions"). Each one goes
 * through the shared command routine or view query and answers with a CounterView, or with a
 * server-function error (the error envelope, status from the shared table) after logging it.
 *
 *   GET  /api/get_counter_view                          → CounterView
 *   POST /api/increment_count  {"amount": n} (JSON)     → CounterView
 *   POST /api/decrement_count  {"amount": n} (JSON)     → CounterView
 *   POST /api/reset_count      (no body)                → CounterView
 *
 * The route chain is typed (`ServerFunctionRoutes`) so the client calls it through `hc`.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';
import { validator } from 'hono/validator';
import { AppError, failureDetail } from '../../errors.ts';
import { COUNTER_CHANGED } from '../application/counter-changed.ts';
import type { CounterDeps } from '../application/deps.ts';
import { executeCounterCommand } from '../application/execute-command.ts';
import { readCounterView } from '../application/get-view.ts';
import { validatedSurrogateHeaders } from '../../http/surrogate.ts';
import type { CounterView } from '../application/view.ts';
import { errorEnvelope, statusForCode } from '../../http/errors.ts';
import { MAX_BODY_BYTES } from '../rest.ts';
import { isJsonMediaType, readAmountFromJsonValue } from '../rest-input.ts';
import { profileMark } from '../../platform/profile.ts';
import { sameSiteOnly } from '../../http/same-site.ts';

export const SERVER_FUNCTION_PATHS = {
  get_counter_view: '/api/get_counter_view',
  increment_count: '/api/increment_count',
  decrement_count: '/api/decrement_count',
  reset_count: '/api/reset_count',
} as const;

export type ServerFunctionName = keyof typeof SERVER_FUNCTION_PATHS;

const FUNCTION_BY_PATH = new Map(Object.entries(SERVER_FUNCTION_PATHS).map(([name, path]) => [path as string, name as ServerFunctionName]));

/** Every status in the shared table for an error is 4xx or 5xx; typed so the client's `res.ok` narrows. */
type FailureStatus = ClientErrorStatusCode | ServerErrorStatusCode;

const NO_STORE = { 'Cache-Control': 'no-store' };

/** `{"amount": n}` with `content-type: application/json`; the same rules and messages as REST. */
const amountInput = validator('json', (value, c): { amount: number } => {
  GUEST_PROFILE: profileMark('routing, middleware, body read, JSON parse');
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new AppError('unsupported_media_type', 'content type must be application/json');
  }
  const amount = readAmountFromJsonValue(value);
  GUEST_PROFILE: profileMark('validation');
  return { amount };
});

/** Any thrown value as the AppError a server function reports (malformed JSON is a validation error). */
function asAppError(error: unknown): AppError {
  if (error instanceof HTTPException && error.status === 400) {
    return new AppError('validation', 'request body must be valid JSON', { cause: error });
  }
  return AppError.fromStore(error, COUNTER_CHANGED);
}

export function serverFunctionRoutes(deps: CounterDeps) {
  const logger = deps.platform.logger;

  /** Logs the failure with its code (never the body), then answers with the error envelope. */
  const fail = (c: Context, name: ServerFunctionName | 'unknown', error: AppError) => {
    const status = statusForCode(error.code) as FailureStatus;
    const fields: Record<string, unknown> = { code: error.code, status, function: name };
    if (status >= 500) logger.log('error', 'server function failed', { ...fields, detail: failureDetail(error) });
    else logger.log('warn', 'server function rejected', fields);
    return c.json(errorEnvelope(error), status, NO_STORE);
  };

  const run = async (c: Context, name: ServerFunctionName, work: () => CounterView | Promise<CounterView>) => {
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

  const limit = (name: ServerFunctionName) =>
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => fail(c, name, new AppError('payload_too_large', 'request body exceeds 256 KiB')),
    });

  // Same cross-site refusal as the REST POSTs and the auth forms (src/http/same-site.ts).
  const sameSite = sameSiteOnly(deps.publicOrigin);

  return (
    new Hono()
      // The host may answer repeats itself while the counter stream stays where it was read.
      .get(SERVER_FUNCTION_PATHS.get_counter_view, (c) => {
        try {
          const { view, source } = readCounterView(deps);
          return c.json(view, 200, { ...NO_STORE, ...validatedSurrogateHeaders([source]) });
        } catch (error) {
          return fail(c, 'get_counter_view', asAppError(error));
        }
      })
      .post(SERVER_FUNCTION_PATHS.increment_count, sameSite, limit('increment_count'), amountInput, (c) =>
        run(c, 'increment_count', () => executeCounterCommand(deps, { type: 'increment', amount: c.req.valid('json').amount })),
      )
      .post(SERVER_FUNCTION_PATHS.decrement_count, sameSite, limit('decrement_count'), amountInput, (c) =>
        run(c, 'decrement_count', () => executeCounterCommand(deps, { type: 'decrement', amount: c.req.valid('json').amount })),
      )
      .post(SERVER_FUNCTION_PATHS.reset_count, sameSite, limit('reset_count'), (c) => run(c, 'reset_count', () => executeCounterCommand(deps, { type: 'reset' })))
      // Failures raised before a handler runs (input validation) arrive here.
      .onError((error, c) => fail(c, FUNCTION_BY_PATH.get(c.req.path) ?? 'unknown', asAppError(error)))
  );
}

/** The typed route table the browser client is generated from (`hc<ServerFunctionRoutes>`). */
export type ServerFunctionRoutes = ReturnType<typeof serverFunctionRoutes>;
