/**
 * `grpc-timeout` enforced by the host, whatever the guest does: a guest blocked reading a
 * client stream cannot run its own timers, so the host ends the call at the deadline itself.
 *
 * gRPC over HTTP/2 (doc/PROTOCOL-HTTP2.md): the header is parsed by the one parser the guest
 * also uses (src/contract/grpc-timeout.ts); a malformed one is refused before an instance is taken with
 * INVALID_ARGUMENT, as the guest answers it and as connect-go does (grpc-go answers INTERNAL).
 * At the deadline the call ends DEADLINE_EXCEEDED (4): Trailers-Only if no head was sent yet,
 * else in trailers (../net/grpc-early-answer.ts); the request body fails so a guest waiting for client messages returns.
 */
import { parseGrpcTimeout } from '../../src/contract/grpc-timeout.ts';
import { afterRemaining } from '../../src/contract/long-timeout.ts';
import { answerInTrailers, answerTrailersOnly } from '../net/grpc-early-answer.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import type { HostLogger } from '../log.ts';
import type { BodySource } from '../wasi/http-incoming.ts';

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_DEADLINE_EXCEEDED = 4;

/** What a request's `grpc-timeout` asks for: nothing (not gRPC, or no header), a refusal, or a deadline. */
export type GrpcDeadline = { kind: 'none' } | { kind: 'malformed' } | { kind: 'after'; ms: number };

/** Only gRPC requests (`application/grpc` or `application/grpc+<codec>`, not grpc-web) carry a deadline. */
export function grpcDeadlineOf(req: NodeRequest): GrpcDeadline {
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/grpc' && !type?.startsWith('application/grpc+')) return { kind: 'none' };
  const value = req.headers['grpc-timeout'];
  if (value === undefined) return { kind: 'none' };
  // Node joins repeated fields with ", ", which the grammar refuses: one header, one deadline.
  const ms = parseGrpcTimeout(Array.isArray(value) ? value.join(', ') : value);
  if (ms === null) return { kind: 'malformed' };
  return ms === undefined ? { kind: 'none' } : { kind: 'after', ms };
}

/** Answers a request whose `grpc-timeout` does not follow the grammar; the body is not read. */
export function refuseMalformedTimeout(logger: HostLogger, req: NodeRequest, res: NodeResponse): void {
  logger.log('warn', 'a gRPC request with a malformed grpc-timeout was refused', { code: 'grpc_timeout_malformed', path: req.url });
  answerTrailersOnly(req, res, GRPC_INVALID_ARGUMENT, 'malformed grpc-timeout header');
}

/**
 * Ends the call DEADLINE_EXCEEDED `ms` after now unless the response ends first. `body` is the
 * request body the guest reads: failing it wakes a read blocked on the client.
 */
export function enforceGrpcDeadline(logger: HostLogger, ms: number, req: NodeRequest, res: NodeResponse, body: BodySource): void {
  const endAt = performance.now() + ms;
  const expire = () => {
    if (res.writableEnded || res.destroyed) return;
    logger.log('info', 'a gRPC call passed its deadline', { code: 'grpc_deadline_exceeded', path: req.url, timeout_ms: ms });
    const message = 'the deadline (grpc-timeout) was exceeded';
    body.fail(message);
    if (res.headersSent) answerInTrailers(req, res, GRPC_DEADLINE_EXCEEDED, message);
    else answerTrailersOnly(req, res, GRPC_DEADLINE_EXCEEDED, message);
  };
  // afterRemaining: a deadline beyond setTimeout's range (600H) would otherwise fire at once.
  const cancel = afterRemaining(() => endAt - performance.now(), expire);
  res.once('close', cancel);
}
