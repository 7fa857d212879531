/**
 * A per-client budget of HTTP/2 streams reset before their answer, a second: what the "rapid
 * reset" attack (CVE-2023-44487) spends. A client may open a stream and reset it in the same write,
 * again and again: the server parses each stream and sets up its exchange, and the client never
 * waits for an answer, so SETTINGS_MAX_CONCURRENT_STREAMS bounds nothing. nghttp2 (Node's HTTP/2)
 * ends a connection after 1,000 resets and then 33 a second (Node's `streamResetBurst` and
 * `streamResetRate`), but the attacker opens another: 243 connections and ~239,000 streams in 8 s
 * from one address took a core and delayed other clients' answers past a second.
 *
 * So resets are charged to the client, not to its connection, as its body pieces are
 * (piece-rate.ts): each stream its client reset (or left with its connection) before the response
 * head costs one token, and a connection it ended with a protocol error (a GOAWAY from nghttp2:
 * malformed frames, HPACK errors, flow-control violations, its own reset limit) costs
 * PROTOCOL_ERROR_COST. A client in debt has its HTTP/2 connections closed (GOAWAY ENHANCE_YOUR_CALM,
 * RFC 9113 §7) and its new connections are not read until it has repaid and saved an eighth of a
 * second's budget (host/http/connection-gate.ts); behind a trusted proxy, whose connection carries
 * other clients, only the indebted client's streams are refused (RST_STREAM ENHANCE_YOUR_CALM).
 * The work one client's resets cost the host is then bounded by the rate, not by how fast it
 * writes, and no other client waits for it. Go (net/http, golang.org/x/net 0.17) bounds the
 * handlers running per connection instead, and nginx 1.25.3 the new streams per event-loop turn;
 * both are per connection, which a client that opens the next one escapes.
 *
 * Keyed as every per-client bound is (client-limit.ts: the address the host determines, IPv6 per
 * /64). Each worker thread keeps its own budgets.
 */
import { clientKey } from '../../src/contract/client-key.ts';
import { canonicalAddress } from '../net/cidr.ts';
import { ClientBuckets } from './debt-bucket.ts';

/** What a connection its client ended with a protocol error costs, in resets: about what setting up and tearing down its session costs the host. */
export const PROTOCOL_ERROR_COST = 10;
/** A client in debt has its new connections read once it has saved 1/RESUME_SHARE of a second's budget (a connection costs more than one stream). */
const RESUME_SHARE = 8;

/** How a client in debt was held back. */
export type ResetThrottle = 'held' | 'cut' | 'refused';

export interface ResetRateStats {
  /** Streams reset (or left) by their client before their response head, since start. */
  resets: number;
  /** Connections their client ended with a protocol error, since start. */
  protocolErrors: number;
  /** Times a client in debt was held back: a new connection left unread, its connections closed, a stream refused. */
  throttled: Record<ResetThrottle, number>;
}

export class ClientResetRate {
  /** Resets a second per client. */
  readonly rate: number;
  readonly #isProxy: (address: string) => boolean;
  readonly #buckets: ClientBuckets;
  #resets = 0;
  #protocolErrors = 0;
  readonly #throttled: Record<ResetThrottle, number> = { held: 0, cut: 0, refused: 0 };

  /** `isProxy`: peers whose connections carry other clients (--trusted-proxies), never held back as a whole. */
  constructor(rate: number, options: { now?: () => number; isProxy?: (address: string) => boolean } = {}) {
    this.rate = rate;
    this.#isProxy = options.isProxy ?? (() => false);
    this.#buckets = new ClientBuckets(rate, rate, options.now ?? (() => performance.now()));
  }

  /** Charges one stream `client` reset before its answer; true when that leaves it in debt. */
  reset(client: string): boolean {
    this.#resets++;
    return !this.#buckets.of(client).take();
  }

  /** Charges a connection `client` ended with a protocol error; true when that leaves it in debt. */
  protocolError(client: string): boolean {
    this.#protocolErrors++;
    return !this.#buckets.of(client).charge(PROTOCOL_ERROR_COST);
  }

  /** Whether `client` is in debt now: its streams are refused, its connections closed. */
  owes(client: string): boolean {
    return (this.#buckets.peek(client)?.msUntil(0) ?? 0) > 0;
  }

  /** Milliseconds before a new connection of `peer` may be read (0: now, or a trusted proxy). */
  connectionDebtMs(peer: string | undefined): number {
    if (peer === undefined) return 0;
    const address = canonicalAddress(peer);
    if (this.#isProxy(address)) return 0;
    const bucket = this.#buckets.peek(clientKey(address));
    if (bucket === undefined || bucket.msUntil(0) === 0) return 0;
    return bucket.msUntil(Math.max(1, this.rate / RESUME_SHARE));
  }

  /** Whether `peer` is a trusted proxy, whose connections carry other clients' streams too. */
  carriesOthers(peer: string | undefined): boolean {
    return peer !== undefined && this.#isProxy(canonicalAddress(peer));
  }

  noteThrottled(how: ResetThrottle): void {
    this.#throttled[how]++;
  }

  get stats(): ResetRateStats {
    return { resets: this.#resets, protocolErrors: this.#protocolErrors, throttled: { ...this.#throttled } };
  }
}
