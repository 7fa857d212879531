/**
 * Exchanges of one connection take turns, so one connection cannot take every guest instance.
 *
 * HTTP/1.1 pipelining (RFC 9112 §9.3.2): a client may send requests without waiting for the
 * responses, which must come back in order. Node parses them all and emits each at once, so one
 * write of 1,000 requests became 1,000 concurrent exchanges. Here a socket's exchanges run one
 * at a time (limit 1), as nginx and Envoy serve a pipelined connection.
 *
 * HTTP/2: up to 100 streams at once per connection (server.ts); its ordinary requests run at most
 * a few at a time, the rest wait their turn holding no instance, so a probe on another connection
 * still finds one free. Each turn, the first ones too, starts from the event loop once the
 * connection's read is parsed (after-read.ts): a stream reset in that read never starts, and
 * a read of many streams whose guests answer without waiting runs a few per loop turn, not all in
 * one. Long-lived exchanges are bounded by the pool's streaming share instead (a gRPC client
 * multiplexes all its calls, held watches too, over one connection).
 */
import { afterRead } from './after-read.ts';
import type { NodeResponse } from '../net/node-http.ts';

interface Line {
  running: number;
  waiting: Array<() => void>;
}

export class ConnectionTurns {
  readonly #lines = new Map<object, Line>();
  readonly #onDeparted: () => void;

  /** `onDeparted`: an exchange was skipped because its client left before its turn (its response closed). */
  constructor(onDeparted: () => void = () => undefined) {
    this.#onDeparted = onDeparted;
  }

  /**
   * Runs `exchange` once fewer than `limit` of the connection's exchanges run; skipped if its client
   * left meanwhile. `fromLoop`: a free turn too starts from the event loop (HTTP/2), not at once.
   */
  run(connection: object, limit: number, res: NodeResponse, exchange: () => Promise<void>, fromLoop = false): Promise<void> {
    let line = this.#lines.get(connection);
    if (line === undefined) {
      line = { running: 0, waiting: [] };
      this.#lines.set(connection, line);
    }
    if (line.running < limit && line.waiting.length === 0) {
      line.running++;
      return this.#finish(connection, line, fromLoop ? afterRead(res, exchange, this.#onDeparted) : exchange());
    }
    const current = line;
    // The turn is handed over with its slot taken (`#finish`). It then starts from the event loop
    // (setImmediate), not from the previous exchange's promise: a guest that never suspends
    // (SQLite answers synchronously) would otherwise chain the whole pipeline in microtasks and
    // starve every other connection until it ends.
    return new Promise<void>((resolve) => current.waiting.push(resolve)).then(() => this.#finish(connection, current, afterRead(res, exchange, this.#onDeparted)));
  }

  /** Connections with an exchange running or waiting its turn (tests). */
  get connections(): number {
    return this.#lines.size;
  }

  #finish(connection: object, line: Line, done: Promise<void>): Promise<void> {
    return done.finally(() => {
      line.running--;
      const next = line.waiting.shift();
      if (next) {
        line.running++;
        next();
      } else if (line.running === 0) {
        this.#lines.delete(connection);
      }
    });
  }
}
