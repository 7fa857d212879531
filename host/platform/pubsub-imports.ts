/**
 * The app:platform/pubsub import over a PubSubBackend. A subscription queues messages that
 * arrive while the guest is busy; `next` resolves with the first queued message or after the
 * timeout, so a waiting guest suspends (JSPI) instead of holding the thread.
 */
import { StorageFailure } from '../storage/errors.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { PubSubBackend } from '../pubsub/types.ts';

/** Bound on queued messages per subscription: they are wake-ups, older ones add nothing. */
const MAX_QUEUED = 64;

export function pubsubImports(backend: PubSubBackend, logger: HostLogger) {
  class Subscription {
    readonly #queue: string[] = [];
    #waiter: ((message: string | undefined) => void) | undefined;
    readonly #stop: () => void;

    constructor(channel: string) {
      this.#stop = backend.listen(channel, (message) => {
        if (this.#waiter) {
          const wake = this.#waiter;
          this.#waiter = undefined;
          wake(message);
          return;
        }
        this.#queue.push(message);
        if (this.#queue.length > MAX_QUEUED) this.#queue.shift();
      });
    }

    next(timeoutMs: number): string | undefined | Promise<string | undefined> {
      const queued = this.#queue.shift();
      if (queued !== undefined) return queued;
      if (timeoutMs === 0) return undefined;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          this.#waiter = undefined;
          resolve(undefined);
        }, timeoutMs);
        this.#waiter = (message) => {
          clearTimeout(timer);
          resolve(message);
        };
      });
    }

    [Symbol.dispose](): void {
      this.#stop();
      this.#waiter?.(undefined);
      this.#waiter = undefined;
    }
  }

  return {
    'app:platform/pubsub': {
      Subscription,
      subscribe: (channel: string) => new Subscription(channel),
      publish: (channel: string, message: string): void | Promise<void> => {
        const fail = (error: unknown): never => {
          logger.log('warn', 'publish failed', { code: 'realtime_publish_failed', error: describeError(error) });
          throw StorageFailure.unavailable('the realtime broker is unavailable');
        };
        try {
          const sent = backend.publish(channel, message);
          return sent instanceof Promise ? sent.catch(fail) : undefined;
        } catch (error) {
          return fail(error);
        }
      },
    },
  };
}
