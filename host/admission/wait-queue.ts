/**
 * A bounded queue of exchanges waiting for a guest instance, each for at most a deadline.
 * Beyond the bound or the deadline the waiter is refused (the server answers 503 with
 * Retry-After): load shedding keeps the wait short for those admitted instead of letting a
 * queue grow without limit (as Envoy's and Netflix's concurrency limiters do). A waiter whose
 * client went away (its signal aborted) leaves the queue at once.
 *
 * Served round-robin by client, each client's waiters in arrival order (fair queuing): a client
 * that queued many exchanges while it was alone does not delay the next client's request behind
 * its backlog; that request is served within one turn of each client waiting.
 */

/**
 * Which share of the pool an exchange draws from: `request` (ordinary), `stream` (long-lived,
 * bounded by `streamMax`), `internal` (the host's own calls, e.g. relay polls: never refused).
 */
export type Lane = 'request' | 'stream' | 'internal';
/** One wait queue per lane: what the pool is given (host/admission/policy.ts makes them). */
export type LaneQueues<T> = Record<Lane, WaitQueue<T>>;

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
  client: string;
  resolve(value: T): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class WaitQueue<T> {
  #options: WaitQueueOptions;
  /**
   * Each client's waiters (a Set keeps arrival order and removes a departed waiter in O(1)); the
   * Map's order is the round's: the client served is moved to its end.
   */
  readonly #lines = new Map<string, Set<Waiter<T>>>();
  #length = 0;

  constructor(options: WaitQueueOptions) {
    this.#options = options;
  }

  get length(): number {
    return this.#length;
  }

  set options(options: WaitQueueOptions) {
    this.#options = options;
  }

  /** Waits for a value handed by `take()`; rejects with AdmissionRefused beyond the bound, the deadline or on abort. `client`: whose turn it waits for (default: one anonymous client). */
  enter(signal?: AbortSignal, client = ''): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AdmissionRefused('departed'));
    if (this.#length >= this.#options.maxLength) return Promise.reject(new AdmissionRefused('queue_full'));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        client,
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
      let line = this.#lines.get(client);
      if (line === undefined) {
        line = new Set();
        this.#lines.set(client, line);
      }
      line.add(waiter);
      this.#length++;
    });
  }

  /** Removes the next waiter (the first of the client whose turn it is) and returns the function that gives it its value (or fails it), if any waits. */
  take(): { give(value: T): void; fail(error: Error): void } | undefined {
    const turn = this.#lines.entries().next();
    if (turn.done) return undefined;
    const [client, line] = turn.value;
    const waiter = line.values().next().value!;
    this.#remove(waiter);
    // The client served goes to the end of the round.
    if (line.size > 0) {
      this.#lines.delete(client);
      this.#lines.set(client, line);
    }
    return { give: (value) => waiter.resolve(value), fail: (error) => waiter.reject(error) };
  }

  /** Refuses every waiter (shutdown). */
  refuseAll(reason: RefusalReason): void {
    for (const line of [...this.#lines.values()]) for (const waiter of [...line]) this.#refuse(waiter, reason);
  }

  #refuse(waiter: Waiter<T>, reason: RefusalReason): void {
    if (this.#lines.get(waiter.client)?.has(waiter) !== true) return;
    this.#remove(waiter);
    waiter.reject(new AdmissionRefused(reason));
  }

  #remove(waiter: Waiter<T>): void {
    const line = this.#lines.get(waiter.client);
    if (line?.delete(waiter) === true) this.#length--;
    if (line?.size === 0) this.#lines.delete(waiter.client);
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
  }
}

/** A lane's queue each, unbounded until the pool's limits are set (InstancePool.setLimits). */
export function laneQueues<T>(): LaneQueues<T> {
  const unbounded = { maxLength: Infinity, maxWaitMs: Infinity };
  return { request: new WaitQueue<T>(unbounded), stream: new WaitQueue<T>(unbounded), internal: new WaitQueue<T>(unbounded) };
}
