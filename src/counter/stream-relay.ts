/**
 * `GET /api/counter/stream` when the host relays streams (`APP_STREAM_RELAY=true`, the Node host),
 * and the guest's side of the relay protocol that gRPC WatchCounter shares (grpc/watch-relay.ts).
 *
 * The guest does not hold the stream: it answers the opening request with the SSE head, the
 * retry hint and the catch-up frame, then ENDS the body, so its instance returns to the pool.
 * The `x-app-relay` header tells the host to keep the client's connection open, where to listen
 * for wake-ups and from which position. On each wake the host sends ONE poll request (the same
 * path with `x-app-relay-poll: <after>`, the oldest position of its clients), whatever the number
 * of clients and their positions: the answer is the whole state, which supersedes every older
 * frame, so the host writes it to every client behind it. The host strips `x-app-relay-poll`
 * from client requests, so only the host can poll.
 *
 * A poll re-reads the store (the source of truth) and answers the whole new state as one frame if
 * it is newer than `after` (nothing otherwise, an error frame on a storage failure) with the new
 * position in `x-app-relay`: never a position below `after`, so a stream never goes backwards.
 */
import type { Context } from 'hono';
import { RELAY_HEADER, RELAY_POLL_HEADER } from '../contract/headers.ts';
import { AppError } from '../errors.ts';
import type { CounterDeps } from './application/deps.ts';
import { CounterWatch } from './application/watch-counter.ts';
import type { CounterView } from './application/view.ts';

/** How often the host re-reads in polling mode (and the guest's own default, stream.ts). */
const RELAY_POLL_INTERVAL_MS = 500;

const UNSIGNED = /^\d{1,16}$/;

interface Frames {
  dataFrame(view: CounterView): string;
  errorFrame(message: string): string;
}

/** What a relay read found: a newer state, a store failure, or nothing newer; and the position after it. */
export interface RelayRead {
  result: CounterView | AppError | undefined;
  after: number;
}

/**
 * The newest state if it is newer than `after` (a one-shot watch: the same read-and-compare and
 * failure log as every guest-held stream). `opening`: a position beyond the store's head is
 * clamped to the head (CounterWatch.catchUp), so every client the host holds is at a position the
 * store has, and one poll serves them all.
 */
export function readForRelay(deps: CounterDeps, after: number, opening = false): RelayRead {
  const watch = new CounterWatch(deps, after);
  const result = opening ? watch.catchUp() : watch.refresh();
  return { result, after: result === undefined || result instanceof AppError ? after : result.last_sequence };
}

/** The `x-app-relay` value: where the host listens for wake-ups, how, and the position reached. */
export function relayInstruction(deps: CounterDeps, after: number): string {
  const { realtime } = deps;
  const mode = !realtime.enabled ? 'off' : realtime.delivery === 'polling' ? 'polling' : 'pubsub';
  const interval = realtime.pollIntervalMs ?? RELAY_POLL_INTERVAL_MS;
  return `channel=${encodeURIComponent(realtime.channel)}; mode=${mode}; interval=${interval}; after=${after}`;
}

/**
 * The position a host poll asks from: undefined when the request is no poll, 'invalid' (logged)
 * when its header is malformed, which only a broken host sends (clients' copies are stripped).
 */
export function relayPollPosition(request: Request, deps: CounterDeps): number | 'invalid' | undefined {
  const raw = request.headers.get(RELAY_POLL_HEADER);
  if (raw === null) return undefined;
  const trimmed = raw.trim();
  if (UNSIGNED.test(trimmed) && Number.isSafeInteger(Number(trimmed))) return Number(trimmed);
  deps.platform.logger.log('error', 'relay poll with an invalid position', { code: 'validation' });
  return 'invalid';
}

function framesOf({ result, after }: RelayRead, frames: Frames): { text: string; after: number } {
  if (result === undefined) return { text: '', after };
  return { text: result instanceof AppError ? frames.errorFrame(result.message) : frames.dataFrame(result), after };
}

function sse(text: string, relay: string): Response {
  return new Response(text, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      [RELAY_HEADER]: relay,
    },
  });
}

/** The opening response of a relayed stream (the start position is already validated). */
export function openRelayedStream(deps: CounterDeps, start: number, retryHint: string, frames: Frames): Response {
  const { text, after } = framesOf(readForRelay(deps, start, true), frames);
  return sse(`${retryHint}${text}`, relayInstruction(deps, after));
}

/** A host poll, or undefined when the request is not one. */
export function answerRelayPoll(c: Context, deps: CounterDeps, frames: Frames): Response | undefined {
  const position = relayPollPosition(c.req.raw, deps);
  if (position === undefined) return undefined;
  if (position === 'invalid') return new Response(null, { status: 400 });
  const { text, after } = framesOf(readForRelay(deps, position), frames);
  return sse(text, relayInstruction(deps, after));
}
