/**
 * In-memory PubSub: each subscription queues the messages published after it was created.
 * `next` cannot block synchronously here, so it returns the queued message or undefined at once.
 */
import type { PubSub, Subscription } from '../ports.ts';
import { checkName } from './checks.ts';
import type { Faults } from './faults.ts';

class MemorySubscription implements Subscription {
  readonly queue: string[] = [];
  readonly #faults: Faults;

  constructor(faults: Faults) {
    this.#faults = faults;
  }

  next(_timeoutMs: number): string | undefined {
    this.#faults.enter('next');
    return this.queue.shift();
  }

  closed = false;
  close(): void {
    this.closed = true;
  }
}

export class MemoryPubSub implements PubSub {
  /** Every successful publish, in order, for assertions. */
  readonly published: { channel: string; message: string }[] = [];
  readonly #subscribers = new Map<string, MemorySubscription[]>();
  readonly #faults: Faults;

  constructor(faults: Faults) {
    this.#faults = faults;
  }

  publish(channel: string, message: string): void {
    this.#faults.enter('publish');
    checkName('channel', channel);
    this.published.push({ channel, message });
    for (const subscription of this.#subscribers.get(channel) ?? []) subscription.queue.push(message);
  }

  /** The queue of the first subscription to `channel` (tests replace what it will receive). */
  queueOf(channel: string): string[] {
    const subscription = this.#subscribers.get(channel)?.[0];
    if (subscription === undefined) throw new Error(`nothing subscribed to ${channel}`);
    return subscription.queue;
  }

  subscribe(channel: string): Subscription {
    this.#faults.enter('subscribe');
    checkName('channel', channel);
    const subscription = new MemorySubscription(this.#faults);
    this.#subscribers.set(channel, [...(this.#subscribers.get(channel) ?? []), subscription]);
    return subscription;
  }
}
