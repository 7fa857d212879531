/**
 * Store round trips of one counter command, per backend, through the real host in process and
 * the built component (test/support/round-trips.ts counts them). Issue 15: the load is one round
 * trip, the turn (stream lease) costs one to take and at most one to release, and the projection
 * adds no write per command (it advances every 32 events: 4 round trips / 32 on average).
 *
 *   PostgreSQL: lease (BEGIN + lock + token, one simple query) 1, load 1, append 2 + COMMIT 1
 *   Redis:      lease 1, load 1, append script 1, release 1
 *   SQLite:     guest calls into the store: lease, load, append, release
 */
import { afterAll, describe, expect, it } from 'vitest';
import { roundTripsPerCommand } from '../support/round-trips.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../support/servers.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('store round trips of one counter command', () => {
  const servers = isolation('roundtrips');
  afterAll(() => servers.cleanup());

  it('PostgreSQL: 5 and a projection share (its run is a transaction of about 8)', { timeout: 120_000 }, async () => {
    const perCommand = await roundTripsPerCommand('postgres', ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema()]);
    console.log('postgres round trips per command', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(5);
    expect(perCommand).toBeLessThanOrEqual(5.5);
  });

  it('Redis: 4 and a projection share', { timeout: 120_000 }, async () => {
    const perCommand = await roundTripsPerCommand('redis', ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix()]);
    console.log('redis round trips per command', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(4);
    expect(perCommand).toBeLessThanOrEqual(4.25);
  });

  it('SQLite: 4 store calls and a projection share', { timeout: 120_000 }, async () => {
    const perCommand = await roundTripsPerCommand('sqlite', []);
    console.log('sqlite store calls per command', perCommand);
    expect(perCommand).toBeGreaterThanOrEqual(4);
    expect(perCommand).toBeLessThanOrEqual(4.25);
  });
});
