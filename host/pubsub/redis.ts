/**
 * Realtime fan-out across hosts through Redis pub/sub.
 *
 * - publish: PUBLISH `<prefix><channel>` on a regular connection configured to fail fast: while
 *   Redis is down it rejects at once (the caller logs `realtime_publish_failed`) instead of
 *   queueing, and a reply that never comes is given up after `publishTimeoutMs`.
 * - listen: ONE subscriber connection per instance (so per host process), opened on the first
 *   listen and shared by every listener: a channel is SUBSCRIBEd when its first listener appears
 *   and UNSUBSCRIBEd when its last one leaves; messages are fanned out in memory. The subscriber
 *   queues its (un)subscribe commands while disconnected, reconnects with a capped backoff, and
 *   ioredis re-subscribes every channel after a reconnect (`autoResubscribe`). Messages sent
 *   while it was disconnected are lost: the WIT promises best effort only, and subscribers treat
 *   messages as wake-ups and re-read the durable store. When the connection drops, every
 *   listener's `onInterrupted` is called (its subscription then fails, and the guest's stream
 *   falls back to re-reading the store on an interval), and `available` stays false until the
 *   subscriber is connected again.
 */
import type { Redis } from 'ioredis';
import { StorageFailure } from '../storage/errors.ts';
import { closeClient, createRedisClient, DEFAULT_CONNECT_TIMEOUT_MS } from '../storage/redis/connection.ts';
import { deliver, interruptAll, type Listener, type Listeners } from './fan-out.ts';
import type { PubSubBackend } from './types.ts';

export const DEFAULT_PUBLISH_TIMEOUT_MS = 1000;

export interface RedisPubSubOptions {
  url: string;
  /** Prepended to every channel name on the server (isolates projects/tests sharing Redis). */
  prefix?: string;
  connectTimeoutMs?: number;
  /** How long a PUBLISH may wait for its reply. */
  publishTimeoutMs?: number;
  /** Connection errors (retried in the background) and listener exceptions; default: ignored. */
  onError?: (error: unknown) => void;
}

export interface RedisPubSub extends PubSubBackend {
  readonly name: 'redis';
  /** Resolves once every (un)subscribe issued so far has been answered by the server. */
  subscribed(): Promise<void>;
  /** The number of channels with at least one listener in this instance. */
  readonly channelCount: number;
  readonly available: boolean;
}

export function redisPubSub(options: RedisPubSubOptions): RedisPubSub {
  const prefix = options.prefix ?? '';
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const onError = (error: unknown): void => options.onError?.(error);
  const connection = { connectTimeoutMs, onError };

  const publisher = createRedisClient(options.url, {
    ...connection,
    commandTimeoutMs: options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS,
  });
  // Connect now, so the first publish does not pay for it; failures retry in the background.
  publisher.connect().catch(() => undefined);
  let publisherWasReady = false;
  publisher.on('ready', () => (publisherWasReady = true));

  let subscriber: Redis | undefined;
  /** True from the subscriber's first 'ready' until its connection drops; again after it is back. */
  let subscriberUp = false;
  let subscriberWasUp = false;
  const listeners: Listeners = new Map();
  const pending = new Set<Promise<unknown>>();
  let closed = false;

  function track(command: Promise<unknown>): void {
    // After close() the queued commands fail with "Connection is closed": expected, not reported.
    const settled = command
      .catch((error: unknown) => {
        if (!closed) onError(error);
      })
      .finally(() => pending.delete(settled));
    pending.add(settled);
  }

  function subscriberConnection(): Redis {
    if (subscriber !== undefined) return subscriber;
    subscriber = createRedisClient(options.url, connection, {
      lazyConnect: false,
      // Unlike storage calls, (un)subscribes must not be lost while disconnected: they wait in
      // the offline queue for the next connection, however long that takes.
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      // An (un)subscribe in flight when the connection drops is sent again after reconnecting
      // (both are idempotent); otherwise it would never settle and its channel never resume.
      autoResendUnfulfilledCommands: true,
      autoResubscribe: true,
      // Pub/sub connections are idle for long periods: no per-command timeout.
      commandTimeout: undefined,
    });
    subscriber.on('message', (channel: string, message: string) => deliver(listeners, channel, message, onError));
    subscriber.on('ready', () => {
      subscriberUp = subscriberWasUp = true;
    });
    // 'close' fires for every failed reconnect attempt too: only the drop itself interrupts.
    subscriber.on('close', () => {
      if (!subscriberUp) return;
      subscriberUp = false;
      if (!closed) interruptAll(listeners, onError);
    });
    return subscriber;
  }

  /** Waits for the publisher's first connection attempt to finish, at most connectTimeoutMs. */
  function firstConnection(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        publisher.off('ready', done);
        publisher.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, connectTimeoutMs);
      publisher.once('ready', done);
      publisher.once('close', done);
    });
  }

  return {
    name: 'redis',

    get channelCount() {
      return listeners.size;
    },

    get available() {
      // Before the first connection there is nothing to report: (un)subscribes wait in the queue.
      return !closed && (subscriberUp || !subscriberWasUp);
    },

    async publish(channel, message) {
      if (closed) throw StorageFailure.unavailable('redis pub/sub is closed');
      // Only right after start is it worth waiting: later, "not ready" means Redis is down.
      if (!publisherWasReady && (publisher.status === 'connecting' || publisher.status === 'connect')) {
        await firstConnection();
      }
      if (publisher.status !== 'ready') throw StorageFailure.unavailable(`redis pub/sub is not connected (${publisher.status})`);
      try {
        await publisher.publish(prefix + channel, message);
      } catch (error) {
        throw StorageFailure.unavailable(`redis publish failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },

    listen(channel, onMessage, onInterrupted) {
      if (closed) throw StorageFailure.unavailable('redis pub/sub is closed');
      const name = prefix + channel;
      // A fresh object per call: the same callback listening twice counts twice.
      const listener: Listener = { onMessage, onInterrupted };
      let set = listeners.get(name);
      if (set === undefined) {
        set = new Set();
        listeners.set(name, set);
        track(subscriberConnection().subscribe(name));
      }
      set.add(listener);
      const mine = set;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        mine.delete(listener);
        if (mine.size === 0 && listeners.get(name) === mine) {
          listeners.delete(name);
          if (!closed && subscriber !== undefined) track(subscriber.unsubscribe(name));
        }
      };
    },

    async ping() {
      // The publisher fails fast while disconnected (no offline queue), and times out a lost reply.
      if (publisher.status !== 'ready') throw StorageFailure.unavailable(`redis pub/sub is not connected (${publisher.status})`);
      await publisher.ping();
    },

    async subscribed() {
      while (pending.size > 0) await Promise.all(pending);
    },

    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await Promise.all([closeClient(publisher), subscriber === undefined ? undefined : closeClient(subscriber)]);
    },
  };
}
