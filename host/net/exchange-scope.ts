/**
 * What the host knows about the exchange a guest instance is serving, reachable from any import
 * the guest calls during it (an AsyncLocalStorage scope opened by the pool around each exchange;
 * it survives JSPI suspensions because a resumed guest continues in the awaited promise's context).
 *
 * Used to end a pub/sub wait early when the client of a streaming response went away: otherwise
 * the guest would notice only at its next write (an SSE keepalive, up to 15 s later), holding an
 * instance all that time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The response body as far as the scope needs it: whether the client can still receive it. */
export interface ClientSink {
  readonly closed: boolean;
}

/** How often waits are checked against their client; one timer for every waiting guest. */
export const CLIENT_CHECK_MS = 250;

export class ExchangeScope {
  #sink: ClientSink | undefined;

  /** The response head was sent: from now on, the body's state tells whether the client is there. */
  attach(sink: ClientSink): void {
    this.#sink = sink;
  }

  get clientGone(): boolean {
    return this.#sink?.closed ?? false;
  }
}

const storage = new AsyncLocalStorage<ExchangeScope>();

export function runInExchange<T>(fn: () => T): T {
  return storage.run(new ExchangeScope(), fn);
}

export function currentExchange(): ExchangeScope | undefined {
  return storage.getStore();
}

/** Calls each registered callback once its exchange's client is gone (checked on one shared timer). */
export class ClientWatch {
  readonly #watched = new Map<() => void, ExchangeScope>();
  #timer: NodeJS.Timeout | undefined;

  /** Watches the current exchange (if any) for `onGone`; returns the function that stops watching. */
  watch(onGone: () => void): () => void {
    const scope = currentExchange();
    if (scope === undefined) return () => undefined;
    this.#watched.set(onGone, scope);
    this.#timer ??= setInterval(() => this.#check(), CLIENT_CHECK_MS).unref();
    return () => this.#forget(onGone);
  }

  #check(): void {
    for (const [onGone, scope] of this.#watched) {
      if (!scope.clientGone) continue;
      this.#forget(onGone);
      onGone();
    }
  }

  #forget(onGone: () => void): void {
    this.#watched.delete(onGone);
    if (this.#watched.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
