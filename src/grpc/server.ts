/**
 * The gRPC endpoint (gRPC over HTTP/2 spec, served through the Fetch Request/Response seam):
 * routes `/package.Service/Method`, parses request messages incrementally from the streamed body,
 * streams response messages, and ends every call with `grpc-status`/`grpc-message` trailers.
 * Limits: `grpc-timeout` deadlines (DEADLINE_EXCEEDED), message size and count (RESOURCE_EXHAUSTED).
 */
import { create, fromBinary, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { withTrailers } from '../http/trailers.ts';
import type { Logger } from '../platform/ports.ts';
import { encodeFrame, MessageReader, type ReaderLimits } from './frames.ts';
import type { CallContext, Route } from './service.ts';
import { encodeGrpcMessage, GrpcCode, GrpcError } from './status.ts';
import { parseGrpcTimeout } from '../contract/grpc-timeout.ts';
import { afterRemaining } from '../contract/long-timeout.ts';

export interface GrpcServerOptions {
  routes: ReadonlyMap<string, Route>;
  limits: ReaderLimits;
  logger: Logger;
  now(): number;
}

/** The head of every gRPC response this server sends. */
export const GRPC_RESPONSE_HEADERS = { 'content-type': 'application/grpc', 'grpc-accept-encoding': 'identity' } as const;

/** True for `application/grpc` and `application/grpc+proto` (the content types this server speaks). */
export function isGrpcRequest(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/grpc' || type === 'application/grpc+proto';
}

/** A call that ends at once with `error` (head, no messages, trailers). */
export function grpcErrorResponse(error: GrpcError): Response {
  return withTrailers(new Response(null, { status: 200, headers: GRPC_RESPONSE_HEADERS }), Promise.resolve(statusTrailers(error.code, error.message)));
}

function statusTrailers(code: GrpcCode, message: string): Headers {
  const trailers = new Headers({ 'grpc-status': String(code) });
  if (message) trailers.set('grpc-message', encodeGrpcMessage(message));
  return trailers;
}

export function createGrpcServer(options: GrpcServerOptions): (request: Request) => Response {
  return (request) => {
    const path = new URL(request.url).pathname;
    const route = options.routes.get(path);
    const refuse = (error: GrpcError) => {
      logCall(options.logger, path, error);
      void request.body?.cancel().catch(() => undefined);
      return grpcErrorResponse(error);
    };
    if (request.method !== 'POST') return refuse(new GrpcError(GrpcCode.UNIMPLEMENTED, 'gRPC requests must use POST'));
    if (!route) return refuse(new GrpcError(GrpcCode.UNIMPLEMENTED, `unknown method ${path}`));
    const timeout = parseGrpcTimeout(request.headers.get('grpc-timeout'));
    if (timeout === null) return refuse(new GrpcError(GrpcCode.INVALID_ARGUMENT, 'malformed grpc-timeout header'));
    return runCall(options, path, route, request, timeout);
  };
}

function runCall(options: GrpcServerOptions, path: string, route: Route, request: Request, timeoutMs: number | undefined): Response {
  const { now, logger } = options;
  const deadlineAt = timeoutMs === undefined ? undefined : now() + timeoutMs;
  let done = false;
  // Set when the client went away: the stream is already cancelled, so nothing may close it again.
  let cancelled = false;
  const ctx: CallContext = {
    deadlineAt,
    get done() {
      return done || (deadlineAt !== undefined && now() >= deadlineAt);
    },
    remainingMs: () => (deadlineAt === undefined ? Infinity : Math.max(0, deadlineAt - now())),
    metadata: request.headers,
  };
  const reader = new MessageReader(request.body, options.limits);
  const outputs = route.handler(decodeAll(reader, route.method.input), ctx)[Symbol.asyncIterator]();

  let settle!: (trailers: Headers) => void;
  const trailers = new Promise<Headers>((resolve) => (settle = resolve));
  const end = (controller: ReadableStreamDefaultController<Uint8Array>, error?: GrpcError) => {
    // A pull still pending when the client cancelled ends here: cancel() settled the call.
    if (cancelled) return;
    done = true;
    if (error) logCall(logger, path, error);
    settle(error ? statusTrailers(error.code, error.message) : statusTrailers(GrpcCode.OK, ''));
    controller.close();
    reader.cancel();
    void outputs.return?.().catch(() => undefined);
  };

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const result = await withDeadline(outputs.next(), ctx);
          if (result.done) return end(controller, ctx.done && !done ? deadlineError() : undefined);
          const message = create(route.method.output, result.value as never);
          controller.enqueue(encodeFrame(toBinary(route.method.output, message)));
        } catch (error) {
          end(controller, GrpcError.from(error));
        }
      },
      cancel() {
        // The client went away (RST_STREAM / closed connection): stop the handler.
        cancelled = true;
        done = true;
        settle(statusTrailers(GrpcCode.CANCELLED, 'the client cancelled the call'));
        reader.cancel();
        void outputs.return?.().catch(() => undefined);
      },
      // highWaterMark 0: produce the next message only when the writer asks. With the default (1)
      // the stream would pull again before the writer has sent the message just produced, and a
      // handler waiting for the client's next message would suspend the instance with it unsent.
    },
    { highWaterMark: 0 },
  );
  return withTrailers(new Response(body, { status: 200, headers: GRPC_RESPONSE_HEADERS }), trailers);
}

function deadlineError(): GrpcError {
  return new GrpcError(GrpcCode.DEADLINE_EXCEEDED, 'the deadline (grpc-timeout) was exceeded');
}

/**
 * Races `step` against the call's deadline (afterRemaining: a deadline beyond setTimeout's range,
 * such as 600H, would otherwise fire at once).
 */
function withDeadline<T>(step: Promise<T>, ctx: CallContext): Promise<T> {
  if (ctx.deadlineAt === undefined) return step;
  let cancel!: () => void;
  const expired = new Promise<never>((_, reject) => {
    cancel = afterRemaining(ctx.remainingMs, () => reject(deadlineError()));
  });
  return Promise.race([step, expired]).finally(cancel);
}

async function* decodeAll(reader: MessageReader, schema: DescMessage): AsyncIterable<unknown> {
  for (;;) {
    const bytes = await reader.next();
    if (bytes === undefined) return;
    let message: unknown;
    try {
      message = fromBinary(schema, bytes);
    } catch (error) {
      throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `the request message could not be decoded as ${schema.typeName}`, { cause: error });
    }
    yield message;
  }
}

/**
 * Every failed call is logged with its AppError code (or `grpc_protocol`) and status. A server
 * fault (INTERNAL or UNKNOWN from the application) logs at error with detail; a protocol error
 * (no AppError behind it: a malformed or truncated frame, a bad header) is the client's, at info like every other refused call.
 */
export function logCall(logger: Logger, path: string, error: GrpcError): void {
  const fields: Record<string, unknown> = { code: error.appCode ?? 'grpc_protocol', grpc_status: error.code, method: path, message: error.message };
  if ((error.code === GrpcCode.INTERNAL || error.code === GrpcCode.UNKNOWN) && error.appCode !== undefined) {
    fields['detail'] = String((error.cause as { cause?: unknown } | undefined)?.cause ?? error.cause ?? '');
    logger.log('error', 'gRPC call failed', fields);
  } else {
    logger.log('info', 'gRPC call rejected', fields);
  }
}
