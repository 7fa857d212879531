/**
 * HTTP/1.1 pipelining (RFC 9112 §9.3.2): a client may send requests without waiting for the
 * responses, which must come back in order. Node parses them all and emits each at once, so one
 * write of 1,000 requests became 1,000 concurrent exchanges. Here the exchanges of one socket
 * take turns: at most one holds (or waits for) a guest instance, as nginx and Envoy serve a
 * pipelined connection one request at a time. The responses come in the same order as before.
 */
import type { Socket } from 'node:net';
import type { NodeResponse } from '../exchange.ts';

export class SocketTurns {
  /** The end of each socket's last exchange (never rejects); absent when the socket has none running. */
  readonly #tails = new Map<Socket, Promise<void>>();

  /** Runs `exchange` once the socket's earlier exchanges are done; skipped if its client left meanwhile. */
  run(socket: Socket, res: NodeResponse, exchange: () => Promise<void>): Promise<void> {
    const previous = this.#tails.get(socket);
    // Each turn starts from the event loop (setImmediate), not from the previous one's promise:
    // a guest that never suspends (SQLite answers synchronously) would otherwise chain the whole
    // pipeline in microtasks and starve every other connection until it ends.
    const mine =
      previous === undefined
        ? exchange()
        : previous.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => (res.destroyed || socket.destroyed ? undefined : exchange()));
    const tail = mine.catch(() => undefined);
    this.#tails.set(socket, tail);
    void tail.then(() => {
      if (this.#tails.get(socket) === tail) this.#tails.delete(socket);
    });
    return mine;
  }

  /** Sockets with an exchange running or waiting its turn (tests). */
  get sockets(): number {
    return this.#tails.size;
  }
}
