/**
 * What a refused exchange gets: 503 with `Retry-After` (RFC 9110 §15.6.4, §10.2.3) and the
 * project's error envelope; a gRPC call gets status UNAVAILABLE (14) in a trailers-only response
 * instead, which gRPC clients retry (gRPC's PROTOCOL-HTTP2 "Trailers-Only", status codes doc).
 */
import type { ServerResponse } from 'node:http';
import type { NodeRequest, NodeResponse } from '../http/exchange.ts';
import { isGrpcRequest } from '../http/grpc-request.ts';
import type { Lane } from '../guest/pool.ts';
import type { RefusalReason } from './wait-queue.ts';

/** Seconds a refused client is asked to wait: about one queue deadline's worth of load drains by then. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * Long-lived exchanges draw from the pool's bounded `stream` share: gRPC calls (a streaming call
 * holds its instance for its whole life) and SSE requests (held by the guest when the relay is off).
 */
export function laneOf(req: NodeRequest): Lane {
  return isGrpcRequest(req) || (req.headers.accept ?? '').includes('text/event-stream') ? 'stream' : 'request';
}

export function sendRefusal(req: NodeRequest, res: NodeResponse, reason: RefusalReason): void {
  if (res.headersSent || res.destroyed || res.writableEnded) return;
  const message = reason === 'stopping' ? 'the server is shutting down, retry later' : 'the server is overloaded, retry later';
  if (isGrpcRequest(req)) {
    // Head only, ended at once: the status travels in the response headers (Trailers-Only).
    res.statusCode = 200;
    res.setHeader('content-type', 'application/grpc');
    res.setHeader('grpc-status', '14');
    res.setHeader('grpc-message', encodeURIComponent(message));
    res.end();
    return;
  }
  const body = JSON.stringify({ error: { code: 'overloaded', message } });
  (res as ServerResponse).writeHead(503, {
    'content-type': 'application/json',
    'retry-after': String(RETRY_AFTER_SECONDS),
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
