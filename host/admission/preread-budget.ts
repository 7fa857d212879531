/**
 * The host memory that request bodies read before the guest runs may take, for the whole server
 * (host/http/body-preread.ts reads them).
 */

/**
 * Body bytes all pre-reads of one server may hold at once (64 MiB). Past it, bodies stream to the
 * guest as they did before pre-reading, so many slow bodies cost at most this much host memory,
 * and past it the pool's admission limits apply to them.
 */
export const MAX_PREREAD_TOTAL_BYTES = 64 * 1_048_576;

/** The bytes pre-reads hold now, against MAX_PREREAD_TOTAL_BYTES. */
export class PrereadBudget {
  readonly #max: number;
  #used = 0;
  constructor(max = MAX_PREREAD_TOTAL_BYTES) {
    this.#max = max;
  }
  get used(): number {
    return this.#used;
  }
  /** Takes `bytes` unless that would pass the budget. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.#max) return false;
    this.#used += bytes;
    return true;
  }
  release(bytes: number): void {
    this.#used -= bytes;
  }
}
