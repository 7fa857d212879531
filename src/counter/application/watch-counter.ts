/**
 * Watching the counter from a sequence: the realtime machinery shared by the SSE stream and
 * gRPC WatchCounter.
 *
 * The durable store is the source of truth. Realtime messages are only wake-ups (they may be
 * lost or duplicated): after each wake the watch re-reads the store and yields the whole new
 * state if it is newer than the last one delivered — so states coalesce and a watch never
 * yields a state older than one it already delivered. While pub/sub fails, the watch re-reads
 * on an interval and tries to subscribe again.
 */
import { AppError } from '../../errors.ts';
import { COUNTER_CHANGED } from './counter-changed.ts';
import type { Subscription } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import type { CounterDeps } from './deps.ts';
import { getCounterView } from './get-view.ts';
import { announcedView } from './announcement.ts';
import type { CounterView } from './view.ts';

const DEFAULT_POLL_MS = 500;
/** Longest single wait on a subscription; callers slice longer waits themselves. */
const MAX_WAIT_MS = 15_000;
/** After a subscribe failure, try again only this often; meanwhile the watch polls the store. */
const RESUBSCRIBE_MS = 3_000;
/** A pub/sub wait that returns without a message this much before its timeout ended early on purpose. */
const EARLY_RETURN_SLACK_MS = 100;

/**
 * What `next` can answer besides a state or an error: the host ended a pub/sub wait early
 * without a message, which is how it says the caller's client may be gone. An SSE stream
 * answers it with a keepalive write (the write fails if the client left).
 */
export const CHECK_CLIENT = 'check-client';
export type WatchResult = CounterView | AppError | typeof CHECK_CLIENT | undefined;

export class CounterWatch {
  readonly #deps: CounterDeps;
  #lastDelivered: number;
  #subscription: Subscription | undefined;
  #subscribeFailedAt = -Infinity;
  /** Set while realtime fails and the watch re-reads on an interval instead. */
  #degraded = false;
  #closed = false;

  /** Delivers states with `last_sequence` greater than `start`. */
  constructor(deps: CounterDeps, start: number) {
    this.#deps = deps;
    this.#lastDelivered = start;
  }

  get lastDelivered(): number {
    return this.#lastDelivered;
  }

  /**
   * The current state if it is newer than the last one delivered; an AppError when the store
   * fails. After a realtime message (a commit's announcement, announcement.ts) the store is asked
   * only for the counter's revision: if the view the message stands for is at that revision it IS the current state and is used as it is (one cheap
   * read per wake instead of a full view, which matters with hundreds of watches woken at once);
   * otherwise (a stale, duplicated or foreign message) the whole view is read.
   */
  refresh(message?: string): CounterView | AppError | undefined {
    return this.#read(() => this.#currentFromMessage(message) ?? getCounterView(this.#deps), false);
  }

  /**
   * The first read of a stream: `refresh`, except that a start position beyond the store's head
   * (one this store never had: a reset store, a forged Last-Event-ID) is clamped to the head and
   * the current state delivered, so the client holds a state that exists and waits for the next
   * change rather than for the store to reach its number.
   */
  catchUp(): CounterView | AppError | undefined {
    return this.#read(() => getCounterView(this.#deps), true);
  }

  #read(load: () => CounterView, clampAhead: boolean): CounterView | AppError | undefined {
    try {
      const view = load();
      const newer = view.last_sequence > this.#lastDelivered;
      const ahead = clampAhead && view.last_sequence < this.#lastDelivered;
      if (!newer && !ahead) return undefined;
      this.#lastDelivered = view.last_sequence;
      return view;
    } catch (error) {
      const appError = AppError.from(error);
      this.#deps.platform.logger.log('warn', 'watch could not read the store', { code: appError.code });
      return appError;
    }
  }

  /** Records that `view` was delivered by the caller (for a snapshot sent regardless of position). */
  delivered(view: CounterView): void {
    this.#lastDelivered = Math.max(this.#lastDelivered, view.last_sequence);
  }

  /**
   * Waits up to `maxMs` for a newer state. Undefined when nothing newer arrived in time or the
   * watch was closed. With realtime off the watch only sleeps (nothing is published).
   */
  async next(maxMs: number): Promise<WatchResult> {
    const { platform } = this.#deps;
    const deadline = platform.now() + maxMs;
    for (;;) {
      const remaining = deadline - platform.now();
      if (this.#closed || remaining <= 0) return undefined;
      if (!this.#deps.realtime.enabled) {
        await platform.sleep(remaining);
        continue;
      }
      const woken = await this.#wait(remaining);
      if (this.#closed) return undefined;
      const result = this.refresh(typeof woken === 'object' ? woken.message : undefined);
      if (result) return result;
      if (woken === CHECK_CLIENT) return CHECK_CLIENT;
    }
  }

  close(): void {
    this.#closed = true;
    this.#subscription?.close();
    this.#subscription = undefined;
  }

  /**
   * Waits for a wake-up (pub/sub) or an interval (polling, or pub/sub failing), at most `maxMs`.
   * Returns the realtime message that woke it, if any; CHECK_CLIENT when the wait ended early
   * without a message.
   */
  async #wait(maxMs: number): Promise<typeof CHECK_CLIENT | { message: string } | undefined> {
    const { realtime, platform } = this.#deps;
    const pollMs = realtime.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (realtime.delivery === 'polling') return void (await platform.sleep(Math.min(pollMs, maxMs)));
    const fresh = this.#subscription === undefined;
    const subscription = this.#subscribe();
    if (!subscription) return void (await platform.sleep(Math.min(pollMs * 2, maxMs)));
    // Just subscribed: re-read once, so a change committed before the subscription is not missed.
    if (fresh) return undefined;
    try {
      const timeoutMs = Math.max(1, Math.min(maxMs, MAX_WAIT_MS));
      const started = platform.now();
      const message = subscription.next(timeoutMs);
      if (message !== undefined) return { message };
      if (platform.now() - started < timeoutMs - EARLY_RETURN_SLACK_MS) return CHECK_CLIENT;
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

  #currentFromMessage(message: string | undefined): CounterView | undefined {
    if (message === undefined) return undefined;
    const carried = announcedView(message, this.#deps.realtime.enabled);
    const newest = carried?.latest_events[0];
    if (carried === undefined || newest === undefined) return undefined;
    try {
      const revision = this.#deps.platform.events.streamRevision(COUNTER_STREAM_ID);
      return revision === BigInt(newest.revision) ? carried : undefined;
    } catch (error) {
      throw AppError.fromStore(error, COUNTER_CHANGED);
    }
  }

  #subscribe(): Subscription | undefined {
    if (this.#subscription) return this.#subscription;
    const { realtime, platform } = this.#deps;
    if (platform.now() - this.#subscribeFailedAt < RESUBSCRIBE_MS) return undefined;
    try {
      this.#subscription = platform.pubsub.subscribe(realtime.channel);
      if (this.#degraded) {
        this.#degraded = false;
        platform.logger.log('info', 'realtime subscription restored; back to push', { code: 'realtime_resubscribed' });
      }
      return this.#subscription;
    } catch {
      // Logged once per outage, not at every retry (hundreds of watches retry every few seconds).
      if (!this.#degraded) {
        platform.logger.log('warn', 'realtime subscribe failed; re-reading the store on an interval', { code: 'realtime_subscribe_failed' });
      }
      this.#subscribeFailedAt = platform.now();
      this.#degraded = true;
      return undefined;
    }
  }
}
