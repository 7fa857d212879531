/**
 * What a refused exchange gets. No instance free (the wait queue full, its deadline passed, the
 * host stopping): 503 with `Retry-After` (RFC 9110 §15.6.4, §10.2.3); a gRPC call gets status
 * UNAVAILABLE (14) in a trailers-only response instead, which gRPC clients retry (gRPC's
 * PROTOCOL-HTTP2 "Trailers-Only", status codes doc). Its client past its limit of exchanges in
 * flight (client-limit.ts): 429 with `Retry-After` (RFC 6585 §4), gRPC RESOURCE_EXHAUSTED (8).
 * Both with the project's error envelope.
 */
import type { ServerResponse } from 'node:http';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import { answerTrailersOnly } from '../net/grpc-early-answer.ts';
import { isGrpcRequest } from '../net/grpc-request.ts';
import type { Lane, RefusalReason } from './wait-queue.ts';

/** Seconds a refused client is asked to wait: about one queue deadline's worth of load drains by then. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * Long-lived exchanges draw from the pool's bounded `stream` share: gRPC calls (a streaming call
 * holds its instance for its whole life) and SSE requests (held by the guest when the relay is off).
 */
export function laneOf(req: NodeRequest): Lane {
  return isGrpcRequest(req) || (req.headers.accept ?? '').includes('text/event-stream') ? 'stream' : 'request';
}

/** Why an exchange is refused: no guest instance for it (wait-queue.ts), or its client's limit (client-limit.ts). */
export type Refusal = RefusalReason | 'client_limit';

interface Answer {
  status: 429 | 503;
  grpcStatus: 8 | 14;
  code: string;
  message: string;
}

function answerFor(refusal: Refusal): Answer {
  if (refusal === 'client_limit') return { status: 429, grpcStatus: 8, code: 'too_many_exchanges', message: 'too many requests in flight from this client, retry later' };
  const message = refusal === 'stopping' ? 'the server is shutting down, retry later' : 'the server is overloaded, retry later';
  return { status: 503, grpcStatus: 14, code: 'overloaded', message };
}

export function sendRefusal(req: NodeRequest, res: NodeResponse, refusal: Refusal): void {
  if (res.headersSent || res.destroyed || res.writableEnded) return;
  const { status, grpcStatus, code, message } = answerFor(refusal);
  if (isGrpcRequest(req)) {
    answerTrailersOnly(req, res, grpcStatus, encodeURIComponent(message));
    return;
  }
  const body = JSON.stringify({ error: { code, message } });
  (res as ServerResponse).writeHead(status, {
    'content-type': 'application/json',
    'retry-after': String(RETRY_AFTER_SECONDS),
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    // A client past its limit has connections enough: this one closes after the answer (HTTP/1.1).
    ...(refusal === 'client_limit' && req.httpVersionMajor < 2 ? { connection: 'close' } : {}),
  });
  res.end(body);
}
