/**
 * At most `limit` exchanges in flight per client, the standard per-client bound (nginx
 * `limit_conn`, Envoy's per-downstream limits). An exchange counts from its start to the close of
 * its response, so a stream the relay holds counts for as long as it is open, and each HTTP/2
 * stream counts on its own. It starts when its connection's turn comes (pipeline.ts): pipelined
 * HTTP/1.1 requests count one at a time, as they run, like nginx's. A request beyond the limit is
 * answered at once, before any guest instance is taken (refusal.ts: 429, gRPC RESOURCE_EXHAUSTED).
 *
 * Why: admission (wait-queue.ts) sheds only what piles up inside the host. One client opening
 * thousands of SSE streams never piles up there (the relay holds them without an instance), but
 * each opening runs the guest once, and Node accepts one connection per event-loop turn: the
 * other clients' connections waited in the kernel behind the attacker's. Past its limit, each
 * of the attacker's requests costs a parse and a short answer.
 *
 * The client is the address the host determines (the peer, or behind --trusted-proxies the client
 * they name: host/net/client-address.ts), keyed as the guest's sign-in limits key it (IPv6 per /64,
 * src/contract/client-key.ts). Each worker thread counts its own exchanges.
 */
import { clientKey } from '../../src/contract/client-key.ts';
import { clientKeyOf, type ClientAddressOf } from '../net/client-address.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';

export type ClientAdmission = { admitted: true } | { admitted: false; client: string };

export interface ClientLimitStats {
  /** Requests refused for their client's limit, since start. */
  refused: number;
  /** The most exchanges in flight of any one client now (how close the busiest is to the limit). */
  busiest: number;
}

export class ClientExchangeLimit {
  readonly limit: number;
  readonly #clientAddress: ClientAddressOf;
  readonly #open = new Map<string, number>();
  /**
   * HTTP/1.1 sockets with the releases of their counted exchanges: a pipelined response that
   * never started gets no 'close' of its own when its socket closes, so the socket's releases them.
   */
  readonly #sockets = new WeakMap<object, Set<() => void>>();
  #refused = 0;

  constructor(limit: number, clientAddress: ClientAddressOf) {
    this.limit = limit;
    this.#clientAddress = clientAddress;
  }

  /** Counts the exchange until its response closes, unless its client has `limit` in flight already. */
  admit(req: NodeRequest, res: NodeResponse): ClientAdmission {
    const client = clientKeyOf(req, this.#clientAddress);
    // No address or a closed socket: the connection is gone already, and the exchange ends at once.
    if (client === undefined || req.socket?.destroyed === true) return { admitted: true };
    const open = this.#open.get(client) ?? 0;
    if (open >= this.limit) {
      this.#refused++;
      return { admitted: false, client };
    }
    this.#open.set(client, open + 1);
    this.#releaseOnClose(client, req, res);
    return { admitted: true };
  }

  /** Exchanges in flight of the client `address` belongs to (tests). */
  inFlight(address: string): number {
    return this.#open.get(clientKey(address)) ?? 0;
  }

  get stats(): ClientLimitStats {
    let busiest = 0;
    for (const open of this.#open.values()) if (open > busiest) busiest = open;
    return { refused: this.#refused, busiest };
  }

  #releaseOnClose(client: string, req: NodeRequest, res: NodeResponse): void {
    const socket = req.httpVersionMajor < 2 ? req.socket : undefined;
    let releases: Set<() => void> | undefined;
    const release = () => {
      res.off('close', release);
      if (releases?.delete(release) === false) return;
      const open = (this.#open.get(client) ?? 1) - 1;
      if (open > 0) this.#open.set(client, open);
      else this.#open.delete(client);
    };
    res.once('close', release);
    if (socket === undefined || socket === null) return;
    releases = this.#sockets.get(socket);
    if (releases === undefined) {
      const set = new Set<() => void>();
      releases = set;
      this.#sockets.set(socket, set);
      socket.once('close', () => {
        for (const each of [...set]) each();
      });
    }
    releases.add(release);
  }
}
