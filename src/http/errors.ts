/**
 * AppError → HTTP, in one table, for every HTTP adapter (counter REST, the top-level app, auth).
 * Responses use the envelope {"error":{"code","message"}}; messages are the public AppError text.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, RateLimitedError, type AppErrorCode, failureDetail } from '../errors.ts';
import type { Logger } from '../platform/ports.ts';

const STATUS_BY_CODE: Record<AppErrorCode, ContentfulStatusCode> = {
  validation: 400,
  // Refused by the counter's current state (the count would leave i32): a conflict with that state (RFC 9110 §15.5.10).
  domain: 409,
  not_found: 404,
  method_not_allowed: 405,
  concurrency: 409,
  conflict: 409,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  // Signed in correctly, but an administrator disabled the account (src/auth/application/account-access.ts).
  account_disabled: 403,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  configuration: 500,
  store: 503,
};

export interface ErrorEnvelope {
  error: { code: AppErrorCode; message: string };
}

export function statusForCode(code: AppErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code];
}

export function errorEnvelope(error: AppError): ErrorEnvelope {
  return { error: { code: error.code, message: error.message } };
}

/**
 * The error response for `error`; when `logger` is given the failure is logged first with its
 * code, method and path (never the body): a client error (4xx) at `info`, a 5xx at `error` with the internal cause.
 */
export function errorResponse(c: Context, error: AppError, logger?: Logger, headers?: Record<string, string>): Response {
  if (error instanceof RateLimitedError) headers = { 'Retry-After': String(error.retryAfterSeconds), ...headers };
  const status = statusForCode(error.code);
  if (logger) logFailure(logger, c, error, status);
  return c.json(errorEnvelope(error), status, { 'Cache-Control': 'no-store', ...headers });
}

/** 404 `not_found` for unknown routes (the top-level app's notFound handler). */
export function notFoundResponse(c: Context, logger?: Logger): Response {
  return errorResponse(c, new AppError('not_found', 'no route matches this path'), logger);
}

/** 405 `method_not_allowed` with the `Allow` header listing the path's methods. */
export function methodNotAllowedResponse(c: Context, allowed: readonly string[], logger?: Logger): Response {
  const error = new AppError('method_not_allowed', `method ${c.req.method} is not allowed here`);
  return errorResponse(c, error, logger, { Allow: allowed.join(', ') });
}

function logFailure(logger: Logger, c: Context, error: AppError, status: number): void {
  const fields: Record<string, unknown> = { code: error.code, status, method: c.req.method, path: c.req.path };
  if (status >= 500) {
    fields['detail'] = failureDetail(error);
    logger.log('error', 'request failed', fields);
  } else {
    // The client's own mistake or a refusal working as intended: worth a line, not an operator's attention.
    logger.log('info', 'request rejected', fields);
  }
}

/**
 * The one route of a read-only path, for every method: GET and HEAD run `handler` (Hono runs GET
 * handlers for HEAD), anything else gets 405 with `Allow: GET, HEAD`. A single handler per path,
 * rather than a GET route plus an `all` route, keeps Hono on its one-handler fast path (no
 * middleware composition, no promise) for the hot GETs.
 */
export function readOnlyRoute(handler: (c: Context) => Response | Promise<Response>, logger?: Logger): (c: Context) => Response | Promise<Response> {
  return (c) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? handler(c) : methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
}
