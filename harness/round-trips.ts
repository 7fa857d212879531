/**
 * Counts store round trips in this process, where they happen: every pg `Client.query` (one
 * simple or extended query = one round trip), every ioredis `sendCommand` (EVALSHA included; the
 * backends use no pipelines), and, for SQLite (no network), every storage call the guest makes
 * into the host (`countedStorage`). Used by test/e2e/round-trips.e2e.test.ts and bench/scale.ts
 * with the real host running in process (host/app.ts).
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import { startHost as startInProcess, type RunningHost } from '../host/app.ts';
import { loadConfig } from '../host/config.ts';
import { jsonLogger } from '../host/log.ts';
import { localPubSub } from '../host/pubsub/local.ts';
import { openStorage } from '../host/storage/open.ts';
import type { StorageBackend } from '../host/storage/types.ts';
import { freePort, tempDataDir } from './host-process.ts';

export const roundTrips = { postgres: 0, redis: 0, sqlite: 0 };

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  const pgQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    roundTrips.postgres++;
    return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pgQuery;
  const redisSend = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof redisSend>) {
    roundTrips.redis++;
    return redisSend.apply(this, args);
  };
}

/** The backend with every guest call into it (a lease's append included) counted in roundTrips.sqlite. */
function countedStorage(storage: StorageBackend): StorageBackend {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, name) {
        const value = Reflect.get(obj, name) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          roundTrips.sqlite++;
          const result = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (name !== 'acquire') return result;
          return result instanceof Promise ? result.then(wrapLease) : wrapLease(result);
        };
      },
    });
  const wrapLease = (lease: unknown) => (lease && typeof lease === 'object' ? wrap(lease) : lease);
  return new Proxy(storage, {
    get(obj, name) {
      const value = Reflect.get(obj, name) as unknown;
      return ['events', 'projections', 'keyValue', 'leases'].includes(String(name)) ? wrap(value as object) : value;
    },
  });
}

const post = (url: string) => fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });

/**
 * Starts the host in process with `args` (--db ...), sends `warmup` then `n` increments from
 * `clients` concurrent senders (1: sequential) and returns the store round trips per command over
 * the `n`. Throws on a non-200 answer.
 */
export async function roundTripsPerCommand(backend: keyof typeof roundTrips, args: string[], n = 64, warmup = 40, clients = 1): Promise<number> {
  install();
  const port = await freePort();
  const config = loadConfig(['--port', String(port), '--data-dir', tempDataDir('roundtrips-'), '--instances-min', '2', ...args], {});
  const logger = jsonLogger(() => {});
  const opened = await openStorage(config, logger);
  const storage = backend === 'sqlite' ? countedStorage(opened) : opened;
  // Store round trips only: live updates go through an in-process broker (with --db postgres or
  // redis the default broker is the store's own server, whose NOTIFY/PUBLISH would count here).
  const host: RunningHost = await startInProcess(config, {}, logger, { storage, pubsub: localPubSub() });
  try {
    const url = `http://127.0.0.1:${host.port}`;
    const send = async () => {
      const response = await post(url);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`increment answered ${response.status}`);
    };
    const sendAll = async (count: number) => {
      let left = count;
      const sender = async () => {
        while (left > 0) {
          left--;
          await send();
        }
      };
      await Promise.all(Array.from({ length: clients }, sender));
    };
    await sendAll(warmup);
    const before = roundTrips[backend];
    await sendAll(n);
    return (roundTrips[backend] - before) / n;
  } finally {
    await host.stop();
  }
}
