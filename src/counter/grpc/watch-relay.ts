/**
 * gRPC WatchCounter through the host's stream relay (host/relay/), as the SSE stream goes
 * (stream-relay.ts): the guest answers the call with the response head, the current state as one
 * length-prefixed WatchCounterResponse and the relay instruction, then ENDS the body, so its
 * instance returns to the pool. The host keeps the HTTP/2 stream open, polls this path for each
 * newer state (one message per answer, written as it comes: the relay does not look inside) and
 * ends the call with its trailers itself: DEADLINE_EXCEEDED at `grpc-timeout`
 * (host/http/grpc-deadline.ts), UNAVAILABLE at shutdown (host/relay/grpc-stream.ts); a client
 * that leaves closes its HTTP/2 stream and the relay drops it. gRPC runs only on the Node host,
 * which always relays, so this is WatchCounter's only path.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AppError } from '../../errors.ts';
import { CounterService, WatchCounterRequestSchema, WatchCounterResponseSchema } from '../../gen/counter_pb.js';
import { encodeFrame, MessageReader, type ReaderLimits } from '../../grpc/frames.ts';
import { GRPC_RESPONSE_HEADERS, grpcErrorResponse, logCall } from '../../grpc/server.ts';
import { GrpcCode, GrpcError } from '../../grpc/status.ts';
import type { CounterDeps } from '../application/deps.ts';
import { getCounterView } from '../application/get-view.ts';
import type { CounterView } from '../application/view.ts';
import { RELAY_HEADER } from '../../contract/headers.ts';
import { readForRelay, relayInstruction, relayPollPosition } from '../stream-relay.ts';
import { sequenceOf, toStreamReply } from './messages.ts';

export const WATCH_COUNTER_PATH = `/${CounterService.typeName}/WatchCounter`;

/**
 * Opens a relayed WatchCounter: the current state first, whatever the client's `last_sequence`
 * (validated only); the host then relays every newer state. A position beyond the store's head is
 * thus clamped to it, as for the SSE stream (one poll serves every client of the feed).
 */
export async function openRelayedWatch(deps: CounterDeps, request: Request, limits: ReaderLimits): Promise<Response> {
  try {
    sequenceOf(decodeRequest(await singleMessage(request, limits)).lastSequence, 'last_sequence');
    const current = getCounterView(deps);
    return relayResponse(frameOf(current), relayInstruction(deps, current.last_sequence));
  } catch (error) {
    const failure = GrpcError.from(error);
    logCall(deps.platform.logger, WATCH_COUNTER_PATH, failure);
    return grpcErrorResponse(failure);
  }
}

/** A host poll of a relayed WatchCounter, or undefined when the request is not one. */
export function answerWatchPoll(deps: CounterDeps, request: Request): Response | undefined {
  const position = relayPollPosition(request, deps);
  if (position === undefined || new URL(request.url).pathname !== WATCH_COUNTER_PATH) return undefined;
  if (position === 'invalid') return new Response(null, { status: 400 });
  const { result, after } = readForRelay(deps, position);
  // A gRPC stream has no place for a notice: a store failure was logged, and the next wake reads again.
  const body = result === undefined || result instanceof AppError ? new Uint8Array(0) : frameOf(result);
  return relayResponse(body, relayInstruction(deps, after));
}

function frameOf(view: CounterView): Uint8Array<ArrayBuffer> {
  return encodeFrame(toBinary(WatchCounterResponseSchema, create(WatchCounterResponseSchema, toStreamReply(view)))) as Uint8Array<ArrayBuffer>;
}

function relayResponse(body: Uint8Array<ArrayBuffer>, instruction: string): Response {
  return new Response(body, { status: 200, headers: { ...GRPC_RESPONSE_HEADERS, [RELAY_HEADER]: instruction } });
}

function decodeRequest(bytes: Uint8Array) {
  try {
    return fromBinary(WatchCounterRequestSchema, bytes);
  } catch (error) {
    throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `the request message could not be decoded as ${WatchCounterRequestSchema.typeName}`, { cause: error });
  }
}

/** A server-streaming request carries exactly one message. */
async function singleMessage(request: Request, limits: ReaderLimits): Promise<Uint8Array> {
  const reader = new MessageReader(request.body, limits);
  const first = await reader.next();
  if (first === undefined || (await reader.next()) !== undefined) {
    reader.cancel();
    throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'expected exactly one request message');
  }
  return first;
}
