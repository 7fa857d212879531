/**
 * Reads a request body of the REST routes' size before a guest instance is taken, so that a client
 * trickling its body holds a socket and a small buffer, never an instance. The guest then gets the
 * whole body at once, with the same headers and trailers it would have streamed.
 *
 * - A body that cannot be longer than `MAX_PREREAD_BYTES` is read completely within the body time
 *   limit (a total time, like Node's requestTimeout; nginx's client_body_timeout is its per-read
 *   cousin); late → 408 (RFC 9110 §15.5.9), the HTTP/1.1 connection closed.
 * - A Content-Length above it → 413 with the envelope the guest's REST routes answer, before any
 *   instance (RFC 9110 §15.5.14).
 * - A body of unknown length (chunked, or HTTP/2 without Content-Length) is read up to the bound;
 *   past it, the guest gets what was read and the rest as it streams in, exactly as before.
 * - gRPC calls stream: each message goes to the guest as it arrives.
 * On HTTP/2 an early answer ends the stream with RST_STREAM NO_ERROR (RFC 9113 §8.1).
 */
import { isGrpcRequest } from '../net/grpc-request.ts';
import type { ServerResponse } from 'node:http';
import http2 from 'node:http2';
import { streamBody, trailerEntries } from './exchange.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import { BodySource } from '../wasi/http-incoming.ts';
import type { ExchangeLimits } from './limits.ts';
import { BodyFlow } from './body-flow.ts';

/** The guest's body limit for its JSON routes and server functions (256 KiB): a larger body is streamed to it, which refuses it. */
export const MAX_PREREAD_BYTES = 256 * 1024;

const TOO_LARGE_BODY = JSON.stringify({ error: { code: 'payload_too_large', message: 'request body exceeds 256 KiB' } });
const TIMEOUT_BODY = JSON.stringify({ error: { code: 'request_timeout', message: 'the request body did not arrive in time' } });

/**
 * The request's body for the guest: a source already complete, or (for streamed bodies) one that
 * fills as the client sends. Undefined when the host answered the request itself or the client left.
 */
export function prereadBody(req: NodeRequest, res: NodeResponse, limits: ExchangeLimits): BodySource | Promise<BodySource | undefined> | undefined {
  // gRPC streams its messages to the guest.
  if (hasNoBody(req)) return streamBody(req);
  // One client's bodies share its budget of pieces a second (host/admission/piece-rate.ts).
  const flow = new BodyFlow(req, limits.pieceRate && { rate: limits.pieceRate, events: limits.events });
  if (isGrpcRequest(req)) return streamBody(req, new BodySource(), flow);
  const declared = declaredLength(req);
  if (declared !== undefined && declared > MAX_PREREAD_BYTES) {
    limits.events.note('info', 'a request body was longer than the host reads before the guest; answered 413', { code: 'http_body_too_large', content_length: declared });
    answerEarly(req, res, 413, TOO_LARGE_BODY);
    return undefined;
  }
  return readBody(req, res, limits, flow);
}

function readBody(req: NodeRequest, res: NodeResponse, limits: ExchangeLimits, flow: BodyFlow): Promise<BodySource | undefined> {
  return new Promise((resolve) => {
    // Queued as they arrive: a body in tiny pieces is held in a few blocks (host/wasi/io.ts).
    const source = new BodySource();
    let size = 0;
    const stop = () => {
      limits.prereadBytes.release(size);
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onGone);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    const onData = (chunk: Buffer) => {
      source.queue.push(chunk);
      flow.piece(chunk.byteLength);
      if (size + chunk.byteLength <= MAX_PREREAD_BYTES && limits.prereadBytes.take(chunk.byteLength)) {
        size += chunk.byteLength;
        return;
      }
      // Longer than announced (or announced by no one), or the host holds enough pre-read bodies:
      // the guest reads it as it streams, as before.
      stop();
      resolve(streamBody(req, source, flow));
    };
    const onEnd = () => {
      stop();
      source.finish(trailerEntries(req));
      resolve(source);
    };
    const onGone = () => {
      stop();
      resolve(undefined);
    };
    const timer =
      limits.bodyTimeoutMs > 0
        ? setTimeout(() => {
            stop();
            limits.events.note('info', 'a request body did not arrive in time; answered 408', { code: 'http_body_timeout', protocol: protocolOf(req) });
            answerEarly(req, res, 408, TIMEOUT_BODY);
            resolve(undefined);
          }, limits.bodyTimeoutMs)
        : undefined;
    timer?.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onGone);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}

/** Answers before the body is read: the HTTP/1.1 connection closes, the HTTP/2 stream is reset with NO_ERROR. */
function answerEarly(req: NodeRequest, res: NodeResponse, status: 408 | 413, body: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)) };
  if (req.httpVersionMajor < 2) headers['connection'] = 'close';
  (res as ServerResponse).writeHead(status, headers);
  res.end(body);
  if ('stream' in req) {
    const stream = req.stream;
    res.once('finish', () => {
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_NO_ERROR);
    });
  }
}

/** True when the head says there is no body (nothing to wait for). */
function hasNoBody(req: NodeRequest): boolean {
  if ('stream' in req) return req.stream.endAfterHeaders;
  // RFC 9112 §6.3: an HTTP/1.1 request without Content-Length or Transfer-Encoding has no body.
  return req.headers['content-length'] === undefined ? req.headers['transfer-encoding'] === undefined : req.headers['content-length'] === '0';
}

/** The Content-Length, when there is one (Node has already refused malformed or conflicting ones on HTTP/1.1). */
function declaredLength(req: NodeRequest): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined || !/^\d{1,16}$/.test(value)) return undefined;
  return Number(value);
}

function protocolOf(req: NodeRequest): string {
  return req.httpVersionMajor < 2 ? 'http/1.1' : 'h2';
}
