/**
 * Redis pub/sub across hosts: two `redisPubSub` instances play two host processes sharing one
 * Redis. Channels carry a random prefix so parallel test files never hear each other. A TCP
 * proxy in front of Redis simulates Redis going away and coming back.
 *
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379). Without it the file is skipped,
 * except under CI=true where it fails.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { redisPubSub, type RedisPubSub, type RedisPubSubOptions } from '../../host/pubsub/redis.ts';
import { StorageFailure } from '../../host/storage/errors.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../support/tcp-proxy.ts';
import { redisAnswers } from '../../harness/servers.ts';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const reachable = (await redisAnswers(REDIS_URL)) === undefined;

if (!reachable && process.env['CI'] === 'true') {
  it(`Redis is reachable at ${REDIS_URL} (required under CI=true)`, () => {
    expect.fail(`cannot reach Redis at ${REDIS_URL}`);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe.runIf(reachable)('redis pub/sub', () => {
  const PREFIX = `test:pubsub-redis:${randomUUID()}:`;
  const admin = reachable ? new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }) : undefined;
  admin?.on('error', () => undefined);
  const opened: RedisPubSub[] = [];
  const proxies: TcpProxy[] = [];

  function host(options: Partial<RedisPubSubOptions> = {}): RedisPubSub {
    const pubsub = redisPubSub({ url: REDIS_URL, prefix: PREFIX, ...options });
    opened.push(pubsub);
    return pubsub;
  }

  /** How many connections are subscribed to `channel` on the server. */
  async function subscribers(channel: string): Promise<number> {
    const reply = (await admin!.pubsub('NUMSUB', PREFIX + channel)) as [string, number];
    return Number(reply[1]);
  }

  afterEach(async () => {
    for (const pubsub of opened.splice(0)) await pubsub.close();
    for (const proxy of proxies.splice(0)) await proxy.cut();
  });

  afterAll(async () => {
    await admin?.quit();
  });

  it('a message published on one host reaches the listeners on every host', async () => {
    const a = host();
    const b = host();
    const heard: string[] = [];
    a.listen('counter', (m) => heard.push(`a:${m}`));
    b.listen('counter', (m) => heard.push(`b1:${m}`));
    b.listen('counter', (m) => heard.push(`b2:${m}`));
    await Promise.all([a.subscribed(), b.subscribed()]);

    await a.publish('counter', 'from-a');
    await until(() => heard.length === 3);
    expect(heard.sort()).toEqual(['a:from-a', 'b1:from-a', 'b2:from-a']);

    heard.length = 0;
    await b.publish('counter', 'from-b');
    await until(() => heard.length === 3);
    expect(heard.sort()).toEqual(['a:from-b', 'b1:from-b', 'b2:from-b']);
  });

  it('channels are separate, and a message arrives byte for byte', async () => {
    const a = host();
    const heard: string[] = [];
    a.listen('one', (m) => heard.push(`one:${m}`));
    a.listen('two', (m) => heard.push(`two:${m}`));
    await a.subscribed();
    const text = '{"é漢字🙂":"x\\n"}';
    await a.publish('two', text);
    await a.publish('three', 'nobody');
    await until(() => heard.length === 1);
    await sleep(50);
    expect(heard).toEqual([`two:${text}`]);
  });

  it('listeners of one channel share one subscription; it ends with the last listener', async () => {
    const a = host();
    const publisher = host();
    const heard: string[] = [];
    const stops = [1, 2, 3].map((n) => a.listen('shared', (m) => heard.push(`${n}:${m}`)));
    await a.subscribed();
    expect(await subscribers('shared')).toBe(1);
    expect(a.channelCount).toBe(1);

    stops[0]!();
    stops[0]!(); // stopping twice is harmless
    await a.subscribed();
    expect(await subscribers('shared')).toBe(1);
    await publisher.publish('shared', 'm1');
    await until(() => heard.length === 2);
    expect(heard.sort()).toEqual(['2:m1', '3:m1']);

    stops[1]!();
    stops[2]!();
    await a.subscribed();
    expect(a.channelCount).toBe(0);
    expect(await subscribers('shared')).toBe(0);
    await publisher.publish('shared', 'm2');
    await sleep(100);
    expect(heard).toHaveLength(2);

    // A new listener subscribes again.
    a.listen('shared', (m) => heard.push(`4:${m}`));
    await a.subscribed();
    expect(await subscribers('shared')).toBe(1);
    await publisher.publish('shared', 'm3');
    await until(() => heard.includes('4:m3'));
  });

  it('a listener that throws does not stop the others', async () => {
    const errors: unknown[] = [];
    const a = host({ onError: (error) => errors.push(error) });
    const heard: string[] = [];
    a.listen('c', () => {
      throw new Error('listener bug');
    });
    a.listen('c', (m) => heard.push(m));
    await a.subscribed();
    await a.publish('c', 'still delivered');
    await until(() => heard.length === 1);
    expect(errors).toEqual([expect.objectContaining({ message: 'listener bug' })]);
  });

  it('publishing to an unreachable Redis rejects fast, without crashing the process', async () => {
    const down = host({ url: 'redis://127.0.0.1:1' });
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      let failure: unknown;
      try {
        await down.publish('c', 'lost');
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(StorageFailure);
      expect((failure as StorageFailure).payload.tag).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    // Listening does not throw either: the subscription waits for the server.
    const stop = down.listen('c', () => undefined);
    stop();
  });

  it('after Redis comes back, publishing works again and the subscriber resubscribes by itself', async () => {
    const proxy = await startTcpProxy(targetOf(REDIS_URL, 6379));
    proxies.push(proxy);
    const a = host(); // direct
    const b = host({ url: proxy.url(REDIS_URL) }); // behind the proxy
    const heard: string[] = [];
    b.listen('live', (m) => heard.push(m));
    await b.subscribed();
    await a.publish('live', 'before');
    await until(() => heard.includes('before'));

    await proxy.cut();
    await until(async () => (await subscribers('live')) === 0);
    const started = Date.now();
    await expect(b.publish('live', 'while-down')).rejects.toBeInstanceOf(StorageFailure);
    expect(Date.now() - started).toBeLessThan(1_000);
    // A channel subscribed while the connection is down is subscribed once it is back.
    b.listen('late', (m) => heard.push(`late:${m}`));

    await proxy.restore();
    // Messages published while the subscriber was away are lost (best effort): keep publishing
    // until one arrives, which proves the subscription came back by itself.
    await until(async () => {
      await a.publish('live', 'after');
      await sleep(50);
      return heard.includes('after');
    }, 10_000);
    await until(async () => {
      await a.publish('late', 'hello');
      await sleep(50);
      return heard.includes('late:hello');
    }, 10_000);
    expect(await subscribers('live')).toBe(1);
    await until(async () => {
      try {
        await b.publish('live', 'from-b-again');
        return true;
      } catch {
        return false;
      }
    }, 10_000);
  });

  it('a dropped connection interrupts every listener once, and available is false until it is back', async () => {
    const proxy = await startTcpProxy(targetOf(REDIS_URL, 6379));
    proxies.push(proxy);
    const b = host({ url: proxy.url(REDIS_URL) });
    expect(b.available).toBe(true); // nothing known yet: (un)subscribes wait for the connection
    let interruptions = 0;
    b.listen(
      'x',
      () => undefined,
      () => interruptions++,
    );
    b.listen(
      'y',
      () => undefined,
      () => interruptions++,
    );
    await b.subscribed();
    expect(b.available).toBe(true);

    await proxy.cut();
    await until(() => interruptions === 2);
    expect(b.available).toBe(false);
    await sleep(500); // failed reconnect attempts do not interrupt again
    expect(interruptions).toBe(2);

    await proxy.restore();
    await until(() => b.available, 10_000);
    expect(interruptions).toBe(2);
  });

  it('close() stops delivery and makes publish fail', async () => {
    const a = host();
    const b = host();
    const heard: string[] = [];
    b.listen('c', (m) => heard.push(m));
    await b.subscribed();
    await b.close();
    await b.close(); // idempotent
    await a.publish('c', 'after-close');
    await sleep(100);
    expect(heard).toEqual([]);
    await expect(b.publish('c', 'x')).rejects.toBeInstanceOf(StorageFailure);
    await until(async () => (await subscribers('c')) === 0);
  });
});
