/**
 * How the host ends a gRPC call itself (a refusal, a malformed or passed deadline) while its client
 * may still be sending.
 *
 * Trailers-Only (gRPC doc/PROTOCOL-HTTP2.md): the status travels in the one HEADERS frame, which
 * must carry END_STREAM. Node's compat `writeHead()` sends the head at once without END_STREAM
 * (the end then follows as an empty DATA frame); clients such as grpc-js read a head without
 * END_STREAM as response headers, not as the status, and waited for trailers that never came. The
 * head is left to `end()`, which sends it with END_STREAM.
 *
 * A call ended with its request still open: the stream is then reset with NO_ERROR (RFC 9113
 * §8.1: a server that sent a complete response may ask the client to stop sending that way), so
 * the client stops sending and the stream closes on both ends, here too.
 */
import type { Http2ServerResponse } from 'node:http2';
import { constants } from 'node:http2';
import type { NodeRequest, NodeResponse } from './node-http.ts';

/** Answers the call at once with `status` (a Trailers-Only response); `message` already percent-encoded where needed. */
export function answerTrailersOnly(req: NodeRequest, res: NodeResponse, status: number, message: string): void {
  res.statusCode = 200;
  res.setHeader('content-type', 'application/grpc');
  res.setHeader('grpc-status', String(status));
  res.setHeader('grpc-message', message);
  res.end();
  stopRequest(req, res);
}

/** Ends a call whose head was sent: the status in trailers. */
export function answerInTrailers(req: NodeRequest, res: NodeResponse, status: number, message: string): void {
  res.addTrailers({ 'grpc-status': String(status), 'grpc-message': message });
  // Node sends the trailers when the stream asks for them ('wantTrailers', after the last DATA):
  // the reset must follow them, or the client sees a stream reset without a status (INTERNAL).
  if ('stream' in res && !req.readableEnded) res.stream.once('wantTrailers', () => setImmediate(() => stopRequest(req, res)));
  res.end();
}

/** The response is complete: an HTTP/2 request still being sent is reset with NO_ERROR once the response is out. */
function stopRequest(req: NodeRequest, res: NodeResponse): void {
  if (!('stream' in res) || req.readableEnded) return;
  const { stream } = res as Http2ServerResponse;
  if (!stream.destroyed && !stream.closed) stream.close(constants.NGHTTP2_NO_ERROR);
}
