/**
 * The Redis backend: the shared storage contract (a random key prefix for this file, reset
 * before every test, plus a second connection on the same prefix for cross-connection races),
 * then what only Redis has: the key prefix (reset and cleanup touch nothing else), the schema
 * version key, the server clock, and failing fast / recovering when Redis goes away (simulated
 * with a TCP proxy that can cut or stall the connection).
 *
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379). Without it the file is skipped,
 * except under CI=true where it fails.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StorageFailure, type PlatformError } from '../../host/storage/errors.ts';
import { prefixPattern } from '../../host/storage/redis/keys.ts';
import { deletePrefixed, openRedisStorage, SCHEMA_VERSION, toStorageFailure, type RedisStorage, type RedisStorageOptions } from '../../host/storage/redis/index.ts';
import { runStorageContract } from './contract.ts';
import { runLeaseContract } from './lease-contract.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../support/tcp-proxy.ts';
import { redisAnswers } from '../../harness/servers.ts';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const reachable = (await redisAnswers(REDIS_URL)) === undefined;

if (!reachable && process.env['CI'] === 'true') {
  it(`Redis is reachable at ${REDIS_URL} (required under CI=true)`, () => {
    expect.fail(`cannot reach Redis at ${REDIS_URL}`);
  });
}

/** Every key this file creates starts with this; afterAll removes them all. */
const PREFIX = `test:storage-redis:${randomUUID()}:`;

const event = (eventType: string, payload = '{}') => ({ eventType, payload, metadata: '{}' });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function failure(call: () => Promise<unknown>): Promise<PlatformError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageFailure);
    return (error as StorageFailure).payload;
  }
  throw new Error('expected a StorageFailure');
}

/** Retries `call` until it succeeds or `ms` pass. */
async function eventually<T>(call: () => Promise<T>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

describe.runIf(reachable)('redis storage', () => {
  const admin = reachable ? new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }) : undefined;
  admin?.on('error', () => undefined);

  afterAll(async () => {
    if (admin === undefined) return;
    await deletePrefixed(admin, PREFIX);
    expect(await admin.keys(prefixPattern(PREFIX))).toEqual([]);
    await admin.quit();
  });

  runStorageContract(
    'redis',
    async () => {
      const storage = await openRedisStorage({ url: REDIS_URL, prefix: PREFIX });
      await storage.reset();
      return storage;
    },
    { openSecond: async () => openRedisStorage({ url: REDIS_URL, prefix: PREFIX }), concurrencyTimeoutMs: 60_000 },
  );

  runLeaseContract('redis', {
    factory: async () => {
      const storage = await openRedisStorage({ url: REDIS_URL, prefix: PREFIX });
      await storage.reset();
      return storage;
    },
    openWithTtl: async (leaseTtlMs) => openRedisStorage({ url: REDIS_URL, prefix: PREFIX, leaseTtlMs }),
  });

  describe('redis backend specifics', () => {
    const opened: RedisStorage[] = [];
    const planted: string[] = [];
    const proxies: TcpProxy[] = [];

    async function open(options: Partial<RedisStorageOptions> = {}): Promise<RedisStorage> {
      const storage = await openRedisStorage({ url: REDIS_URL, prefix: PREFIX, ...options });
      opened.push(storage);
      return storage;
    }

    async function proxy(): Promise<TcpProxy> {
      const started = await startTcpProxy(targetOf(REDIS_URL, 6379));
      proxies.push(started);
      return started;
    }

    afterEach(async () => {
      for (const storage of opened.splice(0)) await storage.close();
      for (const p of proxies.splice(0)) await p.close();
      if (planted.length > 0) await admin!.del(...planted.splice(0));
    });

    it('keeps every key under the prefix, and records the schema version there', async () => {
      const s = await open();
      await s.reset();
      await s.events.append('s', { tag: 'any' }, [event('a')]);
      await s.projections.commit('p', 0n, 1n, [{ tag: 'put', val: { collection: 'c', id: 'x', body: '{}' } }]);
      await s.keyValue.set('ns', 'k', 'v', undefined);
      const keys = (await admin!.keys(prefixPattern(PREFIX))).sort();
      expect(keys.every((key) => key.startsWith(PREFIX))).toBe(true);
      expect(keys.map((key) => key.slice(PREFIX.length))).toEqual(
        ['all', 'checkpoints', 'docids:c', 'docs:c', 'events', 'kv:2:ns:k', 'schema_version', 'seq', 'stream:s', 'types'].sort(),
      );
      expect(await admin!.get(`${PREFIX}schema_version`)).toBe(String(SCHEMA_VERSION));
      await s.reset();
      // reset keeps the layout version, like SQLite keeps its schema.
      expect(await admin!.keys(prefixPattern(PREFIX))).toEqual([`${PREFIX}schema_version`]);
    });

    it('reset() deletes only keys under the prefix, even when the prefix has glob characters', async () => {
      const base = `test:storage-redis:${randomUUID()}:`;
      const globPrefix = `${base}[x]*?:`;
      const outside = [
        `${base}xyz:k`, // matched by the unescaped pattern `${base}[x]*?:*`
        `${base}[x]*?`, // the prefix without its last character
        `${PREFIX.slice(0, -1)}-sibling`, // another prefix sharing all but the last character
        `other-project:${randomUUID()}`,
      ];
      planted.push(...outside);
      for (const key of outside) await admin!.set(key, 'keep');
      const s = await open({ prefix: globPrefix });
      await s.events.append('s', { tag: 'any' }, [event('a')]);
      await s.keyValue.set('ns', 'k', 'v', undefined);
      await s.reset();
      for (const key of outside) expect(await admin!.get(key)).toBe('keep');
      expect(await admin!.keys(prefixPattern(globPrefix))).toEqual([`${globPrefix}schema_version`]);
      expect(await s.events.headSequence()).toBe(0n);
      await deletePrefixed(admin!, globPrefix);
      for (const key of outside) expect(await admin!.get(key)).toBe('keep');
    });

    it('refuses an empty prefix (reset would empty the whole database)', async () => {
      expect(await failure(() => openRedisStorage({ url: REDIS_URL, prefix: '' }))).toMatchObject({ tag: 'invalid' });
    });

    it('refuses keys migrated by a newer build', async () => {
      const prefix = `${PREFIX}newer:`;
      await admin!.set(`${prefix}schema_version`, String(SCHEMA_VERSION + 1));
      planted.push(`${prefix}schema_version`);
      expect(await failure(() => openRedisStorage({ url: REDIS_URL, prefix }))).toMatchObject({ tag: 'internal' });
    });

    it('opening twice migrates once and keeps the data', async () => {
      const a = await open();
      await a.reset();
      await a.events.append('s', { tag: 'no-stream' }, [event('a')]);
      const b = await open();
      expect(await b.events.streamRevision('s')).toBe(1n);
      expect(await admin!.get(`${PREFIX}schema_version`)).toBe(String(SCHEMA_VERSION));
    });

    it('recorded-at comes from the Redis server clock, the same for a whole batch', async () => {
      const s = await open();
      await s.reset();
      const [seconds, micros] = await admin!.time();
      const server = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const recorded = await s.events.append('s', { tag: 'any' }, [event('a'), event('b')]);
      const at = Number(recorded[0]!.recordedAt);
      expect(at).toBeGreaterThanOrEqual(server);
      expect(at - server).toBeLessThan(5_000);
      expect(recorded[1]!.recordedAt).toBe(recorded[0]!.recordedAt);
    });

    it('refuses to assign sequences that a Lua double could not hold', async () => {
      const s = await open();
      await s.reset();
      await admin!.set(`${PREFIX}seq`, String(Number.MAX_SAFE_INTEGER - 1));
      expect((await s.events.append('s', { tag: 'any' }, [event('a')]))[0]?.sequence).toBe(BigInt(Number.MAX_SAFE_INTEGER));
      expect(await failure(() => s.events.append('s', { tag: 'any' }, [event('b')]))).toMatchObject({ tag: 'invalid' });
      expect(await s.events.streamRevision('s')).toBe(1n);
      expect(await s.events.headSequence()).toBe(BigInt(Number.MAX_SAFE_INTEGER));
      await s.reset();
    });

    it('an unreachable server fails unavailable, fast, without crashing the process', async () => {
      const started = Date.now();
      const result = await failure(() => openRedisStorage({ url: 'redis://127.0.0.1:1', prefix: PREFIX }));
      expect(result.tag).toBe('unavailable');
      expect(result.val).toMatch(/ECONNREFUSED/);
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('fails unavailable at once while Redis is away, and recovers by itself when it returns', async () => {
      const p = await proxy();
      const s = await open({ url: p.url(REDIS_URL) });
      await s.reset();
      await s.events.append('s', { tag: 'no-stream' }, [event('a')]);

      await p.cut();
      for (const call of [
        () => s.events.streamRevision('s'),
        () => s.events.append('s', { tag: 'any' }, [event('b')]),
        () => s.keyValue.get('ns', 'k'),
        () => s.projections.checkpoint('p'),
      ]) {
        const started = Date.now();
        expect(await failure(call)).toMatchObject({ tag: 'unavailable' });
        expect(Date.now() - started).toBeLessThan(500);
      }

      await p.restore();
      expect(await eventually(() => s.events.streamRevision('s'))).toBe(1n);
      expect((await s.events.append('s', { tag: 'exact', val: 1n }, [event('b')]))[0]?.revision).toBe(2n);
    });

    it('a call in flight when the connection drops fails unavailable and is not replayed', async () => {
      const p = await proxy();
      const s = await open({ url: p.url(REDIS_URL) });
      await s.reset();
      p.stall();
      const pending = failure(() => s.events.append('s', { tag: 'any' }, [event('lost')]));
      await sleep(50);
      const started = Date.now();
      await p.cut();
      expect(await pending).toMatchObject({ tag: 'unavailable' });
      expect(Date.now() - started).toBeLessThan(500);
      await p.restore();
      await eventually(() => s.events.headSequence());
      await sleep(200);
      // The stalled append never reached Redis, and the client did not resend it.
      expect(await s.events.headSequence()).toBe(0n);
    });

    it('a reply that never comes fails unavailable after the command timeout', async () => {
      const p = await proxy();
      const s = await open({ url: p.url(REDIS_URL), commandTimeoutMs: 300 });
      p.stall();
      const started = Date.now();
      expect(await failure(() => s.events.headSequence())).toMatchObject({ tag: 'unavailable' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(2_000);
      p.unstall();
    });

    it('an acquire whose reply was lost does not leave the stream locked until the lease time passes', async () => {
      const s = await open({ commandTimeoutMs: 150, leaseTtlMs: 5_000 });
      const other = await open({ leaseTtlMs: 5_000 });
      await s.reset();
      // A script that keeps Redis busy for 500 ms: the acquire queued behind it runs (and is
      // granted) only after the caller's command timeout has given up on its reply.
      const busy = admin!.eval(
        "local t = redis.call('TIME') local start = t[1] * 1000000 + t[2] repeat local n = redis.call('TIME') until n[1] * 1000000 + n[2] - start > 500000 return 1",
        0,
      );
      await sleep(20);
      expect(await failure(async () => s.leases.acquire('orphan', 1_000))).toMatchObject({ tag: 'unavailable' });
      await busy;
      // The caller abandoned what it may have been granted: the next writer gets the turn at once.
      const started = Date.now();
      const lease = await other.leases.acquire('orphan', 2_000);
      expect(lease).toBeDefined();
      expect(Date.now() - started).toBeLessThan(1_000);
      await lease?.release();
    });

    it('a host waiting for a lease gets it before the host that released it can take it back', async () => {
      const a = await open();
      const b = await open();
      await a.reset();
      const held = await a.leases.acquire('line', 1_000);
      expect(held).toBeDefined();
      const waiting = b.leases.acquire('line', 2_000);
      await sleep(30); // b has found the lease taken and is next in line
      await held?.release();
      // The lease is free, but a's next writer, asking at once, does not jump the line.
      expect(await a.leases.acquire('line', 0)).toBeUndefined();
      const turn = await waiting;
      expect(turn).toBeDefined();
      await turn?.release();
    });

    it('a waiter that gave up keeps its place in line only briefly', async () => {
      const a = await open();
      const b = await open();
      await a.reset();
      const held = await a.leases.acquire('gone', 1_000);
      expect(await b.leases.acquire('gone', 20)).toBeUndefined(); // polled, took the line, gave up
      await held?.release();
      const started = Date.now();
      const turn = await a.leases.acquire('gone', 1_000);
      expect(turn).toBeDefined();
      expect(Date.now() - started).toBeLessThan(500);
      await turn?.release();
    });

    it('close() is idempotent; a closed backend fails unavailable', async () => {
      const s = await open();
      await s.close();
      await s.close();
      expect(await failure(() => s.events.headSequence())).toMatchObject({ tag: 'unavailable' });
      expect(await failure(() => s.keyValue.set('ns', 'k', 'v', undefined))).toMatchObject({ tag: 'unavailable' });
    });
  });
});

describe('redis error mapping', () => {
  const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
  const named = (name: string, message: string) => {
    const error = new Error(message);
    Object.defineProperty(error, 'name', { value: name });
    return error;
  };

  it('maps connection and client errors to unavailable', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection is closed.'),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      new Error('Command timed out'),
      named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 0).'),
      named('AbortError', 'Command aborted due to connection close'),
      reply('LOADING Redis is loading the dataset in memory'),
      reply('BUSY Redis is busy running a script'),
      reply('OOM command not allowed when used memory > maxmemory'),
      reply('NOAUTH Authentication required.'),
    ]) {
      expect(toStorageFailure(error).payload.tag, error.message).toBe('unavailable');
    }
  });

  it('maps script refusals to invalid and everything else to internal', () => {
    expect(toStorageFailure(reply('INVALID value is not an integer')).payload).toEqual({
      tag: 'invalid',
      val: 'value is not an integer',
    });
    expect(toStorageFailure(reply('ERR user_script:1: Script attempted to access nonexistent global')).payload.tag).toBe('internal');
    expect(toStorageFailure(reply('WRONGTYPE Operation against a key holding the wrong kind of value')).payload.tag).toBe('internal');
    expect(toStorageFailure(new TypeError('bug')).payload).toEqual({ tag: 'internal', val: 'bug' });
    const conflict = StorageFailure.conflict('s', { tag: 'any' }, 1n);
    expect(toStorageFailure(conflict)).toBe(conflict);
  });
});
