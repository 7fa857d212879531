/**
 * Store round trips of one counter command, per backend, through the real host in process and
 * the built component (harness/round-trips.ts counts them). The turn (stream
 * lease) costs one round trip to take, which also brings the stream's newest events, so the
 * command's load is answered by the host from them (host/leases/stream-tails.ts: no round trip);
 * the append is one and, when no other local writer waits for the lease, also ends it (no release
 * round trip); and the projection adds no write per command (it advances every 32 events: 4 round
 * trips / 32 on average, about 8 / 32 on PostgreSQL).
 *
 *   PostgreSQL: lease (lock, timeouts, token and tail in one simple query) 1, append + unlock
 *               (BEGIN; one statement; COMMIT; unlock in one simple query) 1
 *   Redis:      lease (+ tail) script 1, append script (which deletes the lease key) 1
 *   SQLite:     calls into the store: lease (and a check of the newest row), append (which ends the lease in its transaction); the load is answered from the host's tail
 * Sequential commands: no local writer waits, so no lease is handed over.
 *
 * Under 16 concurrent clients a command's turn is mostly handed over from the writer before it
 * (no lease round trip), and is handed on as soon as its append is sent: the appends decided
 * while one is in flight go out together once it is confirmed (host/leases/append-queue.ts, group
 * commit), so a command costs less than one round trip (one each before group commit: 1.50 on
 * PostgreSQL, 1.38 on Redis).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { roundTripsPerCommand } from '../../harness/round-trips.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('store round trips of one counter command', () => {
  const servers = isolation('roundtrips');
  afterAll(() => servers.cleanup());

  it('PostgreSQL: 2 and a projection share (its run is a transaction of about 8)', { timeout: 120_000 }, async () => {
    const perCommand = await roundTripsPerCommand('postgres', ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema()]);
    console.log('postgres round trips per command', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(2);
    expect(perCommand).toBeLessThanOrEqual(2.5);
  });

  it('Redis: 2 and a projection share', { timeout: 120_000 }, async () => {
    const perCommand = await roundTripsPerCommand('redis', ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix()]);
    console.log('redis round trips per command', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(2);
    expect(perCommand).toBeLessThanOrEqual(2.25);
  });

  const concurrently = (backend: 'postgres' | 'redis' | 'sqlite', args: string[]) => roundTripsPerCommand(backend, args, 320, 160, 16);

  it('PostgreSQL under 16 concurrent clients: less than one round trip (group commit), no load', { timeout: 120_000 }, async () => {
    const perCommand = await concurrently('postgres', ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema()]);
    console.log('postgres round trips per command, 16 clients', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(0.25);
    expect(perCommand).toBeLessThan(1);
  });

  it('Redis under 16 concurrent clients: less than one round trip (group commit), no load', { timeout: 120_000 }, async () => {
    const perCommand = await concurrently('redis', ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix()]);
    console.log('redis round trips per command, 16 clients', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(0.25);
    expect(perCommand).toBeLessThan(1);
  });

  it('SQLite: 2 store calls and a projection share', { timeout: 120_000 }, async () => {
    const perCommand = await roundTripsPerCommand('sqlite', []);
    console.log('sqlite store calls per command', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(2);
    expect(perCommand).toBeLessThanOrEqual(2.25);
  });
});
