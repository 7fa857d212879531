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
import type { Subscription } from '../../platform/ports.ts';
import type { CounterDeps } from './deps.ts';
import { getCounterView } from './get-view.ts';
import type { CounterView } from './view.ts';

const DEFAULT_POLL_MS = 500;
/** Longest single wait on a subscription; callers slice longer waits themselves. */
const MAX_WAIT_MS = 15_000;
/** After a subscribe failure, try again only this often; meanwhile the watch polls the store. */
const RESUBSCRIBE_MS = 3_000;

export class CounterWatch {
  readonly #deps: CounterDeps;
  #lastDelivered: number;
  #subscription: Subscription | undefined;
  #subscribeFailedAt = -Infinity;
  #closed = false;

  /** Delivers states with `last_sequence` greater than `start`. */
  constructor(deps: CounterDeps, start: number) {
    this.#deps = deps;
    this.#lastDelivered = start;
  }

  get lastDelivered(): number {
    return this.#lastDelivered;
  }

  /** The current state if it is newer than the last one delivered; an AppError when the store fails. */
  refresh(): CounterView | AppError | undefined {
    try {
      const view = getCounterView(this.#deps);
      if (view.last_sequence <= this.#lastDelivered) return undefined;
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
  async next(maxMs: number): Promise<CounterView | AppError | undefined> {
    const { platform } = this.#deps;
    const deadline = platform.now() + maxMs;
    for (;;) {
      const remaining = deadline - platform.now();
      if (this.#closed || remaining <= 0) return undefined;
      if (!this.#deps.realtime.enabled) {
        await platform.sleep(remaining);
        continue;
      }
      await this.#wait(remaining);
      if (this.#closed) return undefined;
      const result = this.refresh();
      if (result) return result;
    }
  }

  close(): void {
    this.#closed = true;
    this.#subscription?.close();
    this.#subscription = undefined;
  }

  /** Waits for a wake-up (pub/sub) or an interval (polling, or pub/sub failing), at most `maxMs`. */
  async #wait(maxMs: number): Promise<void> {
    const { realtime, platform } = this.#deps;
    const pollMs = realtime.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (realtime.delivery === 'polling') return platform.sleep(Math.min(pollMs, maxMs));
    const fresh = this.#subscription === undefined;
    const subscription = this.#subscribe();
    if (!subscription) return platform.sleep(Math.min(pollMs * 2, maxMs));
    // Just subscribed: re-read once, so a change committed before the subscription is not missed.
    if (fresh) return;
    try {
      subscription.next(Math.max(1, Math.min(maxMs, MAX_WAIT_MS)));
    } catch (error) {
      platform.logger.log('warn', 'realtime wait failed; re-reading the store on an interval', {
        code: 'realtime_subscribe_failed',
        error: AppError.from(error).code,
      });
      subscription.close();
      this.#subscription = undefined;
      this.#subscribeFailedAt = platform.now();
      await platform.sleep(Math.min(pollMs * 2, maxMs));
    }
  }

  #subscribe(): Subscription | undefined {
    if (this.#subscription) return this.#subscription;
    const { realtime, platform } = this.#deps;
    if (platform.now() - this.#subscribeFailedAt < RESUBSCRIBE_MS) return undefined;
    try {
      this.#subscription = platform.pubsub.subscribe(realtime.channel);
      return this.#subscription;
    } catch {
      platform.logger.log('warn', 'realtime subscribe failed; re-reading the store on an interval', { code: 'realtime_subscribe_failed' });
      this.#subscribeFailedAt = platform.now();
      return undefined;
    }
  }
}
