/**
 * `GET /api/counter/stream`: server-sent events of the counter's state.
 *
 * The durable store is the source of truth. Realtime messages are wake-ups (they may be
 * lost or duplicated): after each wake the stream re-reads the store and sends one frame for the
 * whole new state if it is newer than the last one sent — so frames coalesce, and a stream never
 * sends a state older than one it already sent. While pub/sub fails, the stream re-reads on an
 * interval and tries to subscribe again.
 *
 * This guest-held producer serves `wasmtime serve` and `--stream-relay off`; on the Node host the
 * host holds the streams and asks the guest for frames instead (stream-relay.ts).
 */
import { Hono } from 'hono';
import { AppError, storeFailure } from '../errors.ts';
import type { Subscription } from '../platform/ports.ts';
import type { CounterDeps } from './application/deps.ts';
import { getCounterView } from './application/get-view.ts';
import { decodeRealtimeMessage, type CounterView } from './application/view.ts';
import { COUNTER_STREAM_ID } from './domain/counter.ts';
import { errorResponse } from './http-errors.ts';
import { parseStartPosition } from './stream-position.ts';
import { answerRelayPoll, openRelayedStream } from './stream-relay.ts';

export const STREAM_PATH = '/api/counter/stream';
/** A comment line after this much silence keeps proxies from closing an idle stream. */
export const KEEPALIVE_MS = 15_000;
const RETRY_HINT_MS = 1_000;
const DEFAULT_POLL_MS = 500;
/** A pub/sub wait that returns without a message this much before its timeout ended early on purpose. */
const EARLY_RETURN_SLACK_MS = 100;
const encoder = new TextEncoder();

export function dataFrame(view: CounterView): string {
  return `id: ${view.last_sequence}\nevent: counter\ndata: ${JSON.stringify({ view, last_sequence: view.last_sequence })}\n\n`;
}

export function errorFrame(message: string): string {
  return `event: error\ndata: ${JSON.stringify({ message })}\n\n`;
}

/** The producer behind one SSE response; each `next()` yields the next text to send. */
class CounterStream {
  readonly #deps: CounterDeps;
  #lastSent: number;
  #subscription: Subscription | undefined;
  #subscribeFailedAt = -Infinity;
  /** Set while realtime fails and the stream re-reads on an interval instead. */
  #degraded = false;
  #closed = false;
  #greeted = false;
  #lastWrite = 0;

  constructor(deps: CounterDeps, start: number) {
    this.#deps = deps;
    this.#lastSent = start;
  }

  async next(): Promise<string> {
    const now = () => this.#deps.platform.now();
    if (!this.#greeted) {
      this.#greeted = true;
      this.#lastWrite = now();
      // The catch-up frame (if anything is newer than the start position) follows at once.
      return `retry: ${RETRY_HINT_MS}\n\n${this.#refresh() ?? ''}`;
    }
    for (;;) {
      if (this.#closed) return '';
      const silentFor = now() - this.#lastWrite;
      if (silentFor >= KEEPALIVE_MS) {
        this.#lastWrite = now();
        return ': keepalive\n\n';
      }
      if (!this.#deps.realtime.enabled) {
        await this.#deps.platform.sleep(KEEPALIVE_MS - silentFor);
        continue;
      }
      const woken = await this.#wait(KEEPALIVE_MS - silentFor);
      const frame = this.#refresh(typeof woken === 'object' ? woken.message : undefined);
      if (frame) {
        this.#lastWrite = now();
        return frame;
      }
      if (woken === 'check-client') {
        // A write is the only way to learn the client left; it then fails and the stream ends.
        this.#lastWrite = now();
        return ': keepalive\n\n';
      }
    }
  }

  close(): void {
    this.#closed = true;
    this.#subscription?.close();
    this.#subscription = undefined;
  }

  /**
   * A frame for the current state if it is newer than what was sent; an error frame on storage
   * failure. After a realtime message, the store is asked only for the counter's revision: if
   * the message's view is at that revision it IS the current state and is sent as it is (one
   * cheap read per wake instead of a full view, which matters with hundreds of streams woken at
   * once); otherwise (a stale, duplicated or foreign message) the whole view is read.
   */
  #refresh(message?: string): string | undefined {
    try {
      const view = this.#currentFromMessage(message) ?? getCounterView(this.#deps);
      if (view.last_sequence <= this.#lastSent) return undefined;
      this.#lastSent = view.last_sequence;
      return dataFrame(view);
    } catch (error) {
      const appError = AppError.from(error);
      this.#deps.platform.logger.log('warn', 'stream could not read the store', { code: appError.code });
      return errorFrame(appError.message);
    }
  }

  #currentFromMessage(message: string | undefined): CounterView | undefined {
    if (message === undefined) return undefined;
    const carried = decodeRealtimeMessage(message);
    const newest = carried?.latest_events[0];
    if (carried === undefined || newest === undefined) return undefined;
    try {
      const revision = this.#deps.platform.events.streamRevision(COUNTER_STREAM_ID);
      return revision === BigInt(newest.revision) ? carried : undefined;
    } catch (error) {
      throw storeFailure(error);
    }
  }

  /**
   * Waits for a wake-up (pub/sub) or an interval (polling, or pub/sub failing), at most `maxMs`.
   * Returns the realtime message that woke it, if any; 'check-client' when the wait ended early
   * without a message, which is how the host says the client of this response may be gone.
   */
  async #wait(maxMs: number): Promise<'check-client' | { message: string } | undefined> {
    const { realtime, platform } = this.#deps;
    const pollMs = realtime.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (realtime.delivery === 'polling') return void (await platform.sleep(Math.min(pollMs, maxMs)));
    const fresh = this.#subscription === undefined;
    const subscription = this.#subscribe();
    if (!subscription) return void (await platform.sleep(Math.min(pollMs * 2, maxMs)));
    // Just subscribed: re-read once, so a change committed before the subscription is not missed.
    if (fresh) return undefined;
    try {
      const timeoutMs = Math.max(1, Math.min(maxMs, KEEPALIVE_MS));
      const started = platform.now();
      const message = subscription.next(timeoutMs);
      if (message !== undefined) return { message };
      if (platform.now() - started < timeoutMs - EARLY_RETURN_SLACK_MS) return 'check-client';
    } catch (error) {
      platform.logger.log('warn', 'realtime wait failed; re-reading the store on an interval', {
        code: 'realtime_subscribe_failed',
        error: AppError.from(error).code,
      });
      subscription.close();
      this.#subscription = undefined;
      this.#subscribeFailedAt = platform.now();
      this.#degraded = true;
      await platform.sleep(Math.min(pollMs * 2, maxMs));
    }
    return undefined;
  }

  #subscribe(): Subscription | undefined {
    if (this.#subscription) return this.#subscription;
    const { realtime, platform } = this.#deps;
    // After a failure, try again only every few seconds; meanwhile the caller polls the store.
    if (platform.now() - this.#subscribeFailedAt < 3_000) return undefined;
    try {
      this.#subscription = platform.pubsub.subscribe(realtime.channel);
      if (this.#degraded) {
        this.#degraded = false;
        platform.logger.log('info', 'realtime subscription restored; back to push', { code: 'realtime_resubscribed' });
      }
      return this.#subscription;
    } catch {
      // Logged once per outage, not at every retry (hundreds of streams retry every few seconds).
      if (!this.#degraded) {
        platform.logger.log('warn', 'realtime subscribe failed; re-reading the store on an interval', { code: 'realtime_subscribe_failed' });
      }
      this.#subscribeFailedAt = platform.now();
      this.#degraded = true;
      return undefined;
    }
  }
}

export interface StreamOptions {
  /** The host holds the connections and polls for frames (stream-relay.ts); else the guest streams. */
  relay?: boolean;
}

export function counterStreamRoutes(deps: CounterDeps, options: StreamOptions = {}): Hono {
  const app = new Hono();
  const frames = { dataFrame, errorFrame };
  app.get(STREAM_PATH, (c) => {
    const poll = options.relay ? answerRelayPoll(c, deps, frames) : undefined;
    if (poll) return poll;
    const start = parseStartPosition(c.req.header('last-event-id'), c.req.query('last_sequence'));
    if (start instanceof AppError) return errorResponse(c, start, deps.platform.logger);
    if (options.relay) return openRelayedStream(deps, start, `retry: ${RETRY_HINT_MS}\n\n`, frames);
    const producer = new CounterStream(deps, start);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const text = await producer.next();
        if (text) controller.enqueue(encoder.encode(text));
      },
      cancel() {
        producer.close();
      },
      // Pull only when the transport asks: no frame is produced ahead and left to go stale.
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  });
  return app;
}
