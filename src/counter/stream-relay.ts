/**
 * `GET /api/counter/stream` when the host relays streams (`APP_STREAM_RELAY=true`, the Node host).
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
export const RELAY_POLL_INTERVAL_MS = 500;

const UNSIGNED = /^\d{1,16}$/;

interface Frames {
  dataFrame(view: CounterView): string;
  errorFrame(message: string): string;
}

/**
 * The newest state as a frame if it is newer than `after`; an error frame if the store fails.
 * `opening`: a position beyond the store's head is clamped to the head (CounterWatch.catchUp), so
 * every client the host holds is at a position the store has, and one poll serves them all.
 */
function framesAfter(deps: CounterDeps, after: number, frames: Frames, opening = false): { text: string; after: number } {
  // A one-shot watch: the same read-and-compare (and failure log) as every guest-held stream.
  const watch = new CounterWatch(deps, after);
  const result = opening ? watch.catchUp() : watch.refresh();
  if (result === undefined) return { text: '', after };
  if (result instanceof AppError) return { text: frames.errorFrame(result.message), after };
  return { text: frames.dataFrame(result), after: result.last_sequence };
}

function instruction(deps: CounterDeps, after: number): string {
  const { realtime } = deps;
  const mode = !realtime.enabled ? 'off' : realtime.delivery === 'polling' ? 'polling' : 'pubsub';
  const interval = realtime.pollIntervalMs ?? RELAY_POLL_INTERVAL_MS;
  return `channel=${encodeURIComponent(realtime.channel)}; mode=${mode}; interval=${interval}; after=${after}`;
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
  const { text, after } = framesAfter(deps, start, frames, true);
  return sse(`${retryHint}${text}`, instruction(deps, after));
}

/** A host poll, or undefined when the request is not one. */
export function answerRelayPoll(c: Context, deps: CounterDeps, frames: Frames): Response | undefined {
  const raw = c.req.header(RELAY_POLL_HEADER);
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (!UNSIGNED.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    deps.platform.logger.log('error', 'relay poll with an invalid position', { code: 'validation' });
    return new Response(null, { status: 400 });
  }
  const { text, after } = framesAfter(deps, Number(trimmed), frames);
  return sse(text, instruction(deps, after));
}
