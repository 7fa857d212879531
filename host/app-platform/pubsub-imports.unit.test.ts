/** The pubsub import over a scripted backend: interruption, availability, confirmation, and clients that leave. */
import { describe, expect, it } from 'vitest';
import { CLIENT_CHECK_MS, currentExchange, runInExchange } from '../net/exchange-scope.ts';
import type { HostLogger } from '../log.ts';
import type { PubSubBackend } from '../pubsub/types.ts';
import { StorageFailure } from '../platform-answer.ts';
import { pubsubImports, SUBSCRIBE_TIMEOUT_MS } from './pubsub-imports.ts';

const silent: HostLogger = { log: () => undefined };

/** A backend whose connection the test drops and restores. */
function scriptedBackend(options: { confirm?: () => Promise<void> } = {}) {
  const listeners = new Set<{ onMessage: (m: string) => void; onInterrupted?: () => void }>();
  let available = true;
  const backend: PubSubBackend = {
    name: 'scripted',
    publish: (_channel, message) => {
      for (const l of listeners) l.onMessage(message);
    },
    listen(_channel, onMessage, onInterrupted) {
      const listener = { onMessage, onInterrupted };
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get available() {
      return available;
    },
    ...(options.confirm ? { subscribed: options.confirm } : {}),
    close: () => undefined,
  };
  return {
    backend,
    listeners,
    drop() {
      available = false;
      for (const l of listeners) l.onInterrupted?.();
    },
    restore: () => (available = true),
  };
}

const api = (backend: PubSubBackend) => pubsubImports(backend, silent)['app:platform/pubsub'];

describe('pubsub import', () => {
  it('a dropped connection fails the pending and later waits; subscribe fails until it is back', async () => {
    const script = scriptedBackend();
    const pubsub = api(script.backend);
    const subscription = await pubsub.subscribe('c');
    const pending = subscription.next(10_000);
    script.drop();
    await expect(pending).rejects.toBeInstanceOf(StorageFailure);
    expect(() => subscription.next(10)).toThrow(StorageFailure);
    expect(() => pubsub.subscribe('c')).toThrow(StorageFailure);
    subscription[Symbol.dispose]();
    expect(script.listeners.size).toBe(0);

    script.restore();
    const again = await pubsub.subscribe('c');
    const waiting = again.next(10_000);
    await pubsub.publish('c', 'hello');
    expect(await waiting).toBe('hello');
  });

  it('publish returns at once: a broker that fails it later is logged and counted, one that refuses it at once is an error', async () => {
    let reject: (error: Error) => void = () => undefined;
    const lines: Array<Record<string, unknown>> = [];
    let failures = 0;
    const logger: HostLogger = { log: (_level, _message, fields) => void lines.push(fields ?? {}) };
    const slow: PubSubBackend = {
      ...scriptedBackend().backend,
      publish: () => new Promise<void>((_resolve, rejectWith) => (reject = rejectWith)),
    };
    const pubsub = pubsubImports(slow, logger, () => failures++)['app:platform/pubsub'];
    expect(pubsub.publish('c', 'hello')).toBeUndefined();
    reject(new Error('broker gone'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failures).toBe(1);
    expect(lines.map((l) => l['code'])).toEqual(['realtime_publish_failed']);

    const refusing: PubSubBackend = {
      ...scriptedBackend().backend,
      publish: () => {
        throw new Error('not connected');
      },
    };
    expect(() => pubsubImports(refusing, logger, () => failures++)['app:platform/pubsub'].publish('c', 'hello')).toThrow(StorageFailure);
    expect(failures).toBe(2);
  });

  it('subscribe returns once the broker confirmed, and fails unavailable when it never does', async () => {
    let confirm: () => void = () => undefined;
    const confirmed = scriptedBackend({ confirm: () => new Promise<void>((resolve) => (confirm = resolve)) });
    const subscribing = api(confirmed.backend).subscribe('c') as Promise<unknown>;
    let settled = false;
    void subscribing.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    confirm();
    await subscribing;

    const never = scriptedBackend({ confirm: () => new Promise<void>(() => undefined) });
    const started = Date.now();
    await expect(api(never.backend).subscribe('c')).rejects.toBeInstanceOf(StorageFailure);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SUBSCRIBE_TIMEOUT_MS - 50);
    expect(never.listeners.size).toBe(0);
  }, 10_000);

  it('a wait returns none early once the client of its exchange is gone', async () => {
    const pubsub = api(scriptedBackend().backend);
    const sink = { closed: false };
    const outcome = await runInExchange(async () => {
      currentExchange()!.attach(sink);
      const subscription = await pubsub.subscribe('c');
      const started = Date.now();
      const waiting = subscription.next(10_000);
      setTimeout(() => (sink.closed = true), 50);
      const message = await waiting;
      return { message, elapsed: Date.now() - started };
    });
    expect(outcome.message).toBeUndefined();
    expect(outcome.elapsed).toBeLessThan(50 + CLIENT_CHECK_MS * 4);
  });
});
