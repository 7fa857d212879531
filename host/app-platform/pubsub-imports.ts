/**
 * The app:platform/pubsub import over a PubSubBackend. A subscription queues messages that
 * arrive while the guest is busy; `next` resolves with the first queued message or after the
 * timeout, so a waiting guest suspends (JSPI) instead of holding the thread.
 *
 * When the broker connection drops, a subscription is interrupted: its pending and later `next`
 * calls fail `unavailable`, so the guest knows wake-ups may be lost and re-reads the store on an
 * interval until it subscribes again. `subscribe` fails `unavailable` while the broker is down,
 * and otherwise returns once the broker confirmed the subscription (a message published after
 * `subscribe` returned is never missed for want of a SUBSCRIBE still in flight).
 *
 * A pending `next` also returns none early when the client of the response this guest is
 * streaming went away (host/net/exchange-scope.ts): the guest then writes, sees the body closed and ends.
 */
import { ClientWatch } from '../net/exchange-scope.ts';
import { StorageFailure } from '../platform-answer.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { PubSubBackend } from '../pubsub/types.ts';

/** Bound on queued messages per subscription: they are wake-ups, older ones add nothing. */
const MAX_QUEUED = 64;
/** How long `subscribe` waits for the broker to confirm before failing `unavailable`. */
export const SUBSCRIBE_TIMEOUT_MS = 2_000;

const interrupted = () => StorageFailure.unavailable('the realtime subscription was interrupted; re-subscribe');

/** `onPublishFailed`: counts failed publishes (host/metrics/). */
export function pubsubImports(backend: PubSubBackend, logger: HostLogger, onPublishFailed: () => void = () => undefined) {
  const clients = new ClientWatch();

  class Subscription {
    readonly #queue: string[] = [];
    #waiter: ((outcome: string | undefined | StorageFailure) => void) | undefined;
    #interrupted = false;
    readonly #stop: () => void;

    constructor(channel: string) {
      this.#stop = backend.listen(
        channel,
        (message) => {
          if (this.#waiter) return this.#wake(message);
          this.#queue.push(message);
          if (this.#queue.length > MAX_QUEUED) this.#queue.shift();
        },
        () => {
          this.#interrupted = true;
          this.#wake(interrupted());
        },
      );
    }

    #wake(outcome: string | undefined | StorageFailure): void {
      const wake = this.#waiter;
      this.#waiter = undefined;
      wake?.(outcome);
    }

    next(timeoutMs: number): string | undefined | Promise<string | undefined> {
      const queued = this.#queue.shift();
      if (queued !== undefined) return queued;
      if (this.#interrupted) throw interrupted();
      if (timeoutMs === 0) return undefined;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => this.#wake(undefined), timeoutMs);
        // The client of this guest's response left: return early, so the guest writes and finds out.
        const unwatch = clients.watch(() => this.#wake(undefined));
        this.#waiter = (outcome) => {
          clearTimeout(timer);
          unwatch();
          if (outcome instanceof StorageFailure) reject(outcome);
          else resolve(outcome);
        };
      });
    }

    [Symbol.dispose](): void {
      this.#stop();
      this.#wake(undefined);
    }
  }

  async function confirmed(subscription: Subscription): Promise<Subscription> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), SUBSCRIBE_TIMEOUT_MS)));
    try {
      if ((await Promise.race([backend.subscribed!(), timedOut])) === 'timeout') {
        subscription[Symbol.dispose]();
        throw StorageFailure.unavailable('the realtime broker did not confirm the subscription in time');
      }
      return subscription;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    'app:platform/pubsub': {
      Subscription,
      subscribe: (channel: string): Subscription | Promise<Subscription> => {
        if (backend.available === false) throw StorageFailure.unavailable('the realtime broker is unavailable');
        const subscription = new Subscription(channel);
        return backend.subscribed === undefined ? subscription : confirmed(subscription);
      },
      // Returns at once (a returning import, suspending-imports.ts): a broker that fails the publish
      // later is logged and counted here, where the guest would only have logged it again.
      publish: (channel: string, message: string): void => {
        const failed = (error: unknown): void => {
          onPublishFailed();
          logger.log('warn', 'publish failed', { code: 'realtime_publish_failed', error: describeError(error) });
        };
        try {
          const sent = backend.publish(channel, message);
          if (sent instanceof Promise) sent.catch(failed);
        } catch (error) {
          failed(error);
          throw StorageFailure.unavailable('the realtime broker is unavailable');
        }
      },
    },
  };
}
