/**
 * Each client's share of the relay's frame writes: a token bucket of frames per client, whatever
 * the number of streams it holds.
 *
 * Why: the relay's writes (a system call each) come out of the same core as every other client's
 * requests, and the per-client exchange limit lets one client hold over a hundred streams. Without
 * a share, each change that client's streams follow cost that many writes, up to the relay's whole
 * `writesPerSecond`; legitimate clients that hold no stream at all paid for it in throughput. So a
 * client gets at most `writesPerSecond / max(holders, SPLIT_AT_LEAST)` frames a second: a fair split
 * among the clients holding streams, and never more than an eighth of the relay's budget, since the
 * clients who only send requests share the core too. The floor (`writesPerSecond / FLOOR_PART`, 200
 * frames/s at the default) lets a client with a few streams see every change promptly however many
 * clients hold streams; the relay's overall pacing (relay.ts) still bounds the total.
 *
 * A stream over its client's share loses nothing of substance: frames supersede each other, so it
 * keeps the newest one pending (delivery.ts) and gets it when its client's tokens allow, its
 * client's waiting streams oldest first, so none starves behind the others.
 *
 * The client is keyed as the per-client exchange limit keys it (host/admission/client-limit.ts).
 * Each worker thread has its own relay, and counts its own clients' shares.
 */

/** A client alone gets at most this part of the relay's writes. */
export const SPLIT_AT_LEAST = 8;
/** The floor of a client's share is this part of the relay's writes, however many clients hold streams. */
export const FLOOR_PART = 25;
/** A client's bucket holds this much of its share: the frames it may write at once after a pause. */
const BURST_MS = 250;

interface Holder {
  /** Streams this client holds. */
  streams: number;
  tokens: number;
  /** When `tokens` was last refilled. */
  at: number;
  /** Its streams with a frame pending for want of tokens. */
  owed: number;
}

export class ClientFrameShare {
  readonly #writesPerSecond: number;
  readonly #holders = new Map<string, Holder>();

  constructor(writesPerSecond: number) {
    this.#writesPerSecond = writesPerSecond;
  }

  /** Frames a second one client may have now. */
  get rate(): number {
    const w = this.#writesPerSecond;
    return Math.max(w / FLOOR_PART, w / Math.max(this.#holders.size, SPLIT_AT_LEAST));
  }

  /** The most frames a client may write at once (at least one). */
  get capacity(): number {
    return Math.max(1, (this.rate * BURST_MS) / 1000);
  }

  /** Clients holding streams now. */
  get holders(): number {
    return this.#holders.size;
  }

  /** A stream of `key` joins; a new client starts with a full bucket. */
  join(key: string, now: number): void {
    const holder = this.#holders.get(key);
    if (holder) holder.streams++;
    else this.#holders.set(key, { streams: 1, tokens: this.capacity, at: now, owed: 0 });
  }

  /** A stream of `key` leaves; `owed` when it had a frame pending for want of tokens. */
  leave(key: string, owed: boolean): void {
    const holder = this.#holders.get(key);
    if (!holder) return;
    if (owed) holder.owed--;
    if (--holder.streams === 0) this.#holders.delete(key);
  }

  /**
   * Takes a token for a new frame of `key`, unless its bucket is empty or its streams already
   * waiting come first (`waiting`: the caller is one of them, served in order).
   */
  take(key: string, now: number, waiting = false): boolean {
    const holder = this.#holders.get(key);
    if (!holder) return true;
    if (!waiting && holder.owed > 0) return false;
    this.#refill(holder, now);
    if (holder.tokens < 1) return false;
    holder.tokens--;
    return true;
  }

  /** A stream of `key` starts (`true`) or stops (`false`) waiting for tokens. */
  owe(key: string, owed: boolean): void {
    const holder = this.#holders.get(key);
    if (holder) holder.owed += owed ? 1 : -1;
  }

  /** How long until `key` has `frames` tokens (as many as it may have at most): 0 when it has them. */
  msUntil(key: string, frames: number, now: number): number {
    const holder = this.#holders.get(key);
    if (!holder) return 0;
    this.#refill(holder, now);
    const missing = Math.min(frames, Math.floor(this.capacity)) - holder.tokens;
    return missing <= 0 ? 0 : (missing / this.rate) * 1000;
  }

  #refill(holder: Holder, now: number): void {
    holder.tokens = Math.min(this.capacity, holder.tokens + ((now - holder.at) / 1000) * this.rate);
    holder.at = now;
  }
}
