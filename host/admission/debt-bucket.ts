/**
 * A token bucket that may go into debt, one per client: what a client may spend a second on
 * something that costs the host whatever it sends (body pieces, piece-rate.ts; streams it resets,
 * reset-rate.ts). What it sends beyond its budget is still taken (no byte dropped, no frame ignored:
 * the bucket goes into debt), and the host stops serving the client more of it until the debt is
 * repaid, so the host's work for one client is bounded by the rate whatever it sends.
 */

/** A token bucket that may go into debt: `rate` tokens a second, at most `burst` saved. */
export class DebtBucket {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #at: number;
  /** Holders using this bucket now (bodies reading with it): a bucket in use is never forgotten, so a client has one. */
  users = 0;

  constructor(rate: number, burst = rate, now: () => number = () => performance.now()) {
    this.#rate = rate;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#at = now();
  }

  /** Takes one token; false when that leaves the bucket in debt. */
  take(): boolean {
    this.#refill();
    this.#tokens -= 1;
    return this.#tokens >= 0;
  }

  /** Takes `tokens` at once, whatever the debt; false when that leaves the bucket in debt. */
  charge(tokens: number): boolean {
    this.#refill();
    this.#tokens -= tokens;
    return this.#tokens >= 0;
  }

  /** Milliseconds until at least `tokens` are saved (0: now). */
  msUntil(tokens: number): number {
    this.#refill();
    return this.#tokens >= tokens ? 0 : ((tokens - this.#tokens) / this.#rate) * 1000;
  }

  /** True when the bucket is full again: forgetting it changes nothing. */
  get full(): boolean {
    this.#refill();
    return this.#tokens >= this.#burst;
  }

  #refill(): void {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#at) / 1000) * this.#rate);
    this.#at = now;
  }
}

/** How often buckets that are full again are forgotten (a full bucket is the same as none). */
const SWEEP_MS = 10_000;

/** One bucket per client key, made on first use and forgotten once full again and unused: bounded by the clients of the last seconds. */
export class ClientBuckets {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, DebtBucket>();
  #sweptAt: number;

  constructor(rate: number, burst: number, now: () => number) {
    this.#rate = rate;
    this.#burst = burst;
    this.#now = now;
    this.#sweptAt = now();
  }

  /** The client's bucket, made full if it has none. */
  of(client: string): DebtBucket {
    this.#sweep();
    let bucket = this.#buckets.get(client);
    if (bucket === undefined) {
      bucket = new DebtBucket(this.#rate, this.#burst, this.#now);
      this.#buckets.set(client, bucket);
    }
    return bucket;
  }

  /** The client's bucket if it has one (none: a full budget). */
  peek(client: string): DebtBucket | undefined {
    return this.#buckets.get(client);
  }

  /** Clients with a bucket now. */
  get size(): number {
    return this.#buckets.size;
  }

  #sweep(): void {
    const now = this.#now();
    if (now - this.#sweptAt < SWEEP_MS) return;
    this.#sweptAt = now;
    for (const [client, bucket] of this.#buckets) if (bucket.users === 0 && bucket.full) this.#buckets.delete(client);
  }
}
