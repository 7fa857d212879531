/**
 * What the dev runner tells open pages, as server-sent events on its own `/__dev/events`: the
 * state of the last build or start (`status`), and `reload` once a new build or host serves.
 * A page keeps the generation it was served by; a status with another generation also reloads
 * it, so a page that missed a reload (its stream was down) catches up when it reconnects.
 */
import type { ServerResponse } from 'node:http';

export type DevState = 'ok' | 'building' | 'failed';

export interface DevStatus {
  state: DevState;
  /** Counts the hosts started: a page served by an earlier one is stale. */
  generation: number;
  /** What failed (the build's or the host's error), for `failed`. */
  message?: string;
}

/** Open pages at most (each holds one connection); beyond, 503. */
const MAX_CLIENTS = 64;
/** A comment line now and then, so that an idle stream is seen to be alive. */
const KEEPALIVE_MS = 20_000;

export class DevEvents {
  #status: DevStatus = { state: 'building', generation: 0 };
  readonly #clients = new Set<ServerResponse>();
  readonly #keepalive = setInterval(() => this.#send(': keepalive\n\n'), KEEPALIVE_MS).unref();

  get status(): DevStatus {
    return this.#status;
  }

  /** Serves one page's stream: the current status at once, then every change. */
  attach(response: ServerResponse): void {
    if (this.#clients.size >= MAX_CLIENTS) {
      response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' }).end('too many dev event streams\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write(`retry: 1000\n\n${frame('status', this.#status)}`);
    this.#clients.add(response);
    response.once('close', () => this.#clients.delete(response));
  }

  publish(status: Omit<DevStatus, 'generation'>, options: { newGeneration?: boolean } = {}): void {
    const generation = this.#status.generation + (options.newGeneration ? 1 : 0);
    this.#status = { ...status, generation };
    this.#send(frame('status', this.#status));
    if (options.newGeneration) this.#send(frame('reload', { generation }));
  }

  close(): void {
    clearInterval(this.#keepalive);
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }

  #send(text: string): void {
    for (const client of this.#clients) client.write(text);
  }
}

/** One SSE event (HTML Living Standard, "server-sent events"): JSON data has no newline. */
function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
