/**
 * A per-client budget of request body pieces per second. Node's parsers call into JavaScript once
 * per HTTP/1.1 chunk and once per HTTP/2 DATA frame, so a body's cost follows how finely its client
 * cuts it, not its size: 200,000 one-byte chunks cost the host a thousand times what one 200 KB
 * write does. Each piece takes a token (debt-bucket.ts); a client that runs out goes into debt and
 * its bodies are not read until the debt is repaid (host/http/body-flow.ts), so the host's CPU for
 * one client's pieces is bounded by the rate whatever it sends. No byte is dropped: the body
 * arrives, slower.
 *
 * The client is keyed as the per-client exchange limit keys it (client-limit.ts: the address the
 * host determines, IPv6 per /64), and all of its exchanges share one budget. Each worker thread
 * keeps its own.
 */
import { clientKey } from '../../src/contract/client-key.ts';
import { canonicalAddress } from '../net/cidr.ts';
import { clientKeyOf, type ClientAddressOf } from '../net/client-address.ts';
import type { NodeRequest } from '../net/node-http.ts';
import { ClientBuckets, type DebtBucket } from './debt-bucket.ts';

export interface PieceRateStats {
  /** Times a body was paused or a new connection left unread because its client was over budget, since start. */
  throttled: number;
}

/** The budgets of all clients: one bucket per client key, forgotten once full again. */
export class ClientPieceRate {
  /** Pieces per second per client. */
  readonly rate: number;
  readonly #clientAddress: ClientAddressOf;
  readonly #isProxy: (address: string) => boolean;
  readonly #buckets: ClientBuckets;
  #throttled = 0;

  /** `isProxy`: peers whose connections carry other clients (--trusted-proxies), never held back as a whole. */
  constructor(rate: number, clientAddress: ClientAddressOf, options: { now?: () => number; isProxy?: (address: string) => boolean } = {}) {
    this.rate = rate;
    this.#clientAddress = clientAddress;
    this.#isProxy = options.isProxy ?? (() => false);
    this.#buckets = new ClientBuckets(rate, rate, options.now ?? (() => performance.now()));
  }

  /**
   * Milliseconds the peer of a new connection owes (0: none, or a trusted proxy): its connection is
   * read only once it has repaid, or every new connection would bring a socket read of pieces.
   */
  connectionDebtMs(peer: string | undefined): number {
    if (peer === undefined) return 0;
    const address = canonicalAddress(peer);
    if (this.#isProxy(address)) return 0;
    return this.#buckets.peek(clientKey(address))?.msUntil(0) ?? 0;
  }

  /** Whether `peer` is a trusted proxy, whose connections carry other clients' requests too. */
  carriesOthers(peer: string | undefined): boolean {
    return peer !== undefined && this.#isProxy(canonicalAddress(peer));
  }

  /** The bucket of the request's client, with its key, until `done`; undefined when the connection is gone. */
  open(req: NodeRequest): { client: string; bucket: DebtBucket; done: () => void } | undefined {
    const client = clientKeyOf(req, this.#clientAddress);
    if (client === undefined) return undefined;
    const bucket = this.#buckets.of(client);
    bucket.users++;
    let open = true;
    const done = () => {
      if (open) bucket.users--;
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
}
