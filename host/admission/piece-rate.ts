/**
 * A per-client budget of request body pieces per second. Node's parsers call into JavaScript once
 * per HTTP/1.1 chunk and once per HTTP/2 DATA frame, so a body's cost follows how finely its client
 * cuts it, not its size: 200,000 one-byte chunks cost the host a thousand times what one 200 KB
 * write does. Each piece takes a token; a client that runs out goes into debt and its bodies are
 * not read until the debt is repaid (host/http/body-flow.ts), so the host's CPU for one client's
 * pieces is bounded by the rate whatever it sends. No byte is dropped: the body arrives, slower.
 *
 * The client is keyed as the per-client exchange limit keys it (client-limit.ts: the address the
 * host determines, IPv6 per /64), and all of its exchanges share one budget. Each worker thread
 * keeps its own.
 */
import { clientKey } from '../../src/contract/client-key.ts';
import { canonicalAddress } from '../http/cidr.ts';
import { clientKeyOf, type ClientAddressOf } from '../http/client-address.ts';
import type { NodeRequest } from '../http/exchange.ts';

/** A token bucket that may go into debt: `rate` tokens a second, at most `burst` saved. */
export class PieceBucket {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #at: number;
  /** Bodies reading with this bucket now: a bucket in use is never forgotten, so a client has one. */
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

  /** Takes `pieces` tokens at once, whatever the debt. */
  charge(pieces: number): void {
    this.#refill();
    this.#tokens -= pieces;
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

export interface PieceRateStats {
  /** Times a body was paused or a new connection left unread because its client was over budget, since start. */
  throttled: number;
}

/** The budgets of all clients: one bucket per client key, forgotten once full again. */
export class ClientPieceRate {
  /** Pieces per second per client. */
  readonly rate: number;
  readonly #clientAddress: ClientAddressOf;
  readonly #now: () => number;
  readonly #isProxy: (address: string) => boolean;
  readonly #buckets = new Map<string, PieceBucket>();
  #sweptAt: number;
  #throttled = 0;

  /** `isProxy`: peers whose connections carry other clients (--trusted-proxies), never held back as a whole. */
  constructor(rate: number, clientAddress: ClientAddressOf, options: { now?: () => number; isProxy?: (address: string) => boolean } = {}) {
    this.rate = rate;
    this.#clientAddress = clientAddress;
    this.#now = options.now ?? (() => performance.now());
    this.#isProxy = options.isProxy ?? (() => false);
    this.#sweptAt = this.#now();
  }

  /**
   * Milliseconds the peer of a new connection owes (0: none, or a trusted proxy): its connection is
   * read only once it has repaid, or every new connection would bring a socket read of pieces.
   */
  connectionDebtMs(peer: string | undefined): number {
    if (peer === undefined) return 0;
    const address = canonicalAddress(peer);
    if (this.#isProxy(address)) return 0;
    return this.#buckets.get(clientKey(address))?.msUntil(0) ?? 0;
  }

  /** Whether `peer` is a trusted proxy, whose connections carry other clients' requests too. */
  carriesOthers(peer: string | undefined): boolean {
    return peer !== undefined && this.#isProxy(canonicalAddress(peer));
  }

  /** The bucket of the request's client, with its key, until `done`; undefined when the connection is gone. */
  open(req: NodeRequest): { client: string; bucket: PieceBucket; done: () => void } | undefined {
    const client = clientKeyOf(req, this.#clientAddress);
    if (client === undefined) return undefined;
    this.#sweep();
    let bucket = this.#buckets.get(client);
    if (bucket === undefined) {
      bucket = new PieceBucket(this.rate, this.rate, this.#now);
      this.#buckets.set(client, bucket);
    }
    const used = bucket;
    used.users++;
    let open = true;
    const done = () => {
      if (open) used.users--;
      open = false;
    };
    return { client, bucket, done };
  }

  /** A body was paused, or a new connection left unread, for its client's debt (host_body_piece_rate_throttled_total). */
  noteThrottled(): void {
    this.#throttled++;
  }

  get stats(): PieceRateStats {
    return { throttled: this.#throttled };
  }

  /** Clients with a bucket now (tests). */
  get clients(): number {
    return this.#buckets.size;
  }

  #sweep(): void {
    const now = this.#now();
    if (now - this.#sweptAt < SWEEP_MS) return;
    this.#sweptAt = now;
    for (const [client, bucket] of this.#buckets) if (bucket.users === 0 && bucket.full) this.#buckets.delete(client);
  }
}
