/**
 * A bounded FIFO of exchanges waiting for a guest instance, each for at most a deadline.
 * Beyond the bound or the deadline the waiter is refused (the server answers 503 with
 * Retry-After): load shedding keeps the wait short for those admitted instead of letting a
 * queue grow without limit (as Envoy's and Netflix's concurrency limiters do). A waiter whose
 * client went away (its signal aborted) leaves the queue at once.
 */

export type RefusalReason = 'queue_full' | 'deadline' | 'departed' | 'stopping';

/** Why an exchange got no instance. `departed` and `stopping` are not the client's overload. */
export class AdmissionRefused extends Error {
  override readonly name = 'AdmissionRefused';
  readonly reason: RefusalReason;

  constructor(reason: RefusalReason) {
    super(`no guest instance for this exchange (${reason})`);
    this.reason = reason;
  }
}

export interface WaitQueueOptions {
  /** most waiters at once; Infinity: unbounded */
  maxLength: number;
  /** milliseconds a waiter may wait; Infinity: no deadline */
  maxWaitMs: number;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class WaitQueue<T> {
  #options: WaitQueueOptions;
  // A Set keeps insertion order (FIFO) and removes a departed waiter in O(1).
  readonly #waiters = new Set<Waiter<T>>();

  constructor(options: WaitQueueOptions) {
    this.#options = options;
  }

  get length(): number {
    return this.#waiters.size;
  }

  set options(options: WaitQueueOptions) {
    this.#options = options;
  }

  /** Waits for a value handed by `take()`; rejects with AdmissionRefused beyond the bound, the deadline or on abort. */
  enter(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AdmissionRefused('departed'));
    if (this.#waiters.size >= this.#options.maxLength) return Promise.reject(new AdmissionRefused('queue_full'));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        resolve,
        reject,
        timer: undefined,
        signal,
        onAbort: () => this.#refuse(waiter, 'departed'),
      };
      if (Number.isFinite(this.#options.maxWaitMs)) {
        waiter.timer = setTimeout(() => this.#refuse(waiter, 'deadline'), this.#options.maxWaitMs);
        waiter.timer.unref();
      }
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  /** Removes the first waiter and returns the function that gives it its value (or fails it), if any waits. */
  take(): { give(value: T): void; fail(error: Error): void } | undefined {
    const first = this.#waiters.values().next();
    if (first.done) return undefined;
    const waiter = first.value;
    this.#remove(waiter);
    return { give: (value) => waiter.resolve(value), fail: (error) => waiter.reject(error) };
  }

  /** Refuses every waiter (shutdown). */
  refuseAll(reason: RefusalReason): void {
    for (const waiter of [...this.#waiters]) this.#refuse(waiter, reason);
  }

  #refuse(waiter: Waiter<T>, reason: RefusalReason): void {
    if (!this.#waiters.has(waiter)) return;
    this.#remove(waiter);
    waiter.reject(new AdmissionRefused(reason));
  }

  #remove(waiter: Waiter<T>): void {
    this.#waiters.delete(waiter);
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
  }
}
