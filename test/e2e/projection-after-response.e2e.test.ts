/**
 * The counter projection advances in batches (every PROJECTION_BATCH events) OFF the
 * request path: the command that completes a batch answers first, and its instance advances the
 * projection after the response is sent (src/platform/after-response.ts). Shown against a real
 * host on PostgreSQL by holding the projection's checkpoint table locked from another session
 * while the batch's last increment is sent: the increment is answered all the same, and the
 * projection catches up once the lock goes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECTION_BATCH } from '../../src/counter/application/execute-command.ts';
import { COUNTER_PROJECTION } from '../../src/counter/application/projection.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, sharedServers } from '../../harness/servers.ts';
import { increment } from '../../harness/write-load.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('the counter projection runs after the response', () => {
  const servers = isolation('afterresponse');
  const schema = servers.schema();
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.stop();
    await servers.cleanup();
  });

  it('answers the increment that completes a batch while the projection cannot commit, then catches up', { timeout: 60_000 }, async () => {
    host = await startHost({ args: ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema] });
    for (let i = 1n; i < PROJECTION_BATCH; i++) expect((await increment(host.url)).status).toBe(200);

    const checkpoint = async () => {
      const rows = await servers.pg().query<{ position: string }>(`SELECT position::text FROM "${schema}".app_checkpoints WHERE projection = $1`, [COUNTER_PROJECTION]);
      return BigInt(rows.rows[0]?.position ?? '0');
    };
    expect(await checkpoint()).toBe(0n);

    // Another session holds the checkpoint table: the projection's first read of it waits.
    const blocker = await servers.pg().connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE "${schema}".app_checkpoints IN ACCESS EXCLUSIVE MODE`);
      const answer = await increment(host.url);
      expect(answer.status).toBe(200);
      expect(answer.count).toBe(Number(PROJECTION_BATCH));
      // Answered while the projection waits: it has not moved (read inside the locking session).
      const held = await blocker.query<{ position: string }>(`SELECT position::text FROM "${schema}".app_checkpoints WHERE projection = $1`, [COUNTER_PROJECTION]);
      expect(held.rows).toEqual([]);
    } finally {
      await blocker.query('COMMIT');
      blocker.release();
    }
    await expect.poll(checkpoint, { timeout: 10_000 }).toBe(PROJECTION_BATCH);
    expect(host.logs().filter((l) => l['code'] === 'projection_failed')).toEqual([]);
  });
});
