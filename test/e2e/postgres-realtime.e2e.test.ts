/**
 * Two host processes on one PostgreSQL store with the default realtime mode: live updates travel
 * through PostgreSQL's LISTEN/NOTIFY, so an increment on A reaches an SSE client of B. When B's
 * listener connection is killed on the server (pg_terminate_backend), B's stream falls back to
 * re-reading the store, B reconnects by itself, and the stream catches up and returns to push.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_ROLE } from '../../host/pubsub/postgres.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, sharedServers } from '../../harness/servers.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';

interface View {
  count: number;
  last_sequence: number;
}

const increment = async (url: string): Promise<View> => {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 1 }) });
  expect(response.status).toBe(200);
  return (await response.json()) as View;
};

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('several hosts sharing PostgreSQL, default realtime', () => {
  const servers = isolation('pgrt');
  const schema = servers.schema();
  let a: HostProcess;
  let b: HostProcess;

  /** Server pids of this schema's listener connections (one per host with a live stream). */
  const listenerPids = async (): Promise<number[]> =>
    (await servers.pg().query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`wasi-app:${schema}${LISTENER_ROLE}`])).rows.map((r) => r.pid);
  const logsOf = (host: HostProcess, code: string) => host.logs().filter((line) => line['code'] === code);

  beforeAll(async () => {
    const args = ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--shutdown-grace-ms', '500'];
    [a, b] = await Promise.all([startHost({ args }), startHost({ args })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await servers.cleanup();
  });

  it('defaults to postgres realtime, and an increment on A reaches an SSE client of B within 1 s', async () => {
    for (const host of [a, b]) expect(logsOf(host, 'host_listening')[0]).toMatchObject({ db: 'postgres', realtime: 'postgres' });
    const onB = await openSse(`${b.url}/api/counter/stream`);
    try {
      await onB.waitFor((f) => f.retry === '1000');
      await expect.poll(listenerPids, { timeout: 5_000 }).toHaveLength(1);
      const fromA = await increment(a.url);
      await onB.waitFor(counterFrame(fromA.last_sequence), 1_000);
    } finally {
      onB.close();
    }
  });

  it("B's listener connection killed: B catches up from the store, reconnects and returns to push", async () => {
    const onB = await openSse(`${b.url}/api/counter/stream`);
    try {
      await onB.waitFor((f) => f.retry === '1000');
      await expect.poll(listenerPids, { timeout: 5_000 }).toHaveLength(1);
      const [killed] = await listenerPids();
      const restoredBefore = logsOf(b, 'realtime_resubscribed').length;

      await servers.pg().query('SELECT pg_terminate_backend($1)', [killed]);
      await expect.poll(() => logsOf(b, 'realtime_subscribe_failed').length, { timeout: 5_000 }).toBeGreaterThan(0);
      const duringOutage = await increment(a.url);
      await onB.waitFor(counterFrame(duringOutage.last_sequence), 5_000);

      // B opens a new listener connection by itself and its stream subscribes again.
      await expect.poll(() => logsOf(b, 'realtime_resubscribed').length, { timeout: 15_000 }).toBeGreaterThan(restoredBefore);
      const [listener] = await listenerPids();
      expect(listener).toBeDefined();
      expect(listener).not.toBe(killed);
      const afterRestore = await increment(a.url);
      await onB.waitFor(counterFrame(afterRestore.last_sequence), 1_000);

      const ids = onB.frames.filter((f) => f.event === 'counter').map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(b.child.exitCode).toBeNull();
    } finally {
      onB.close();
    }
  });

  it('an explicit --realtime local on a shared store is warned about at start, with a code', async () => {
    const args = ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'];
    const local = await startHost({ args });
    try {
      expect(logsOf(local, 'realtime_not_shared')).toEqual([expect.objectContaining({ level: 'warn', db: 'postgres' })]);
    } finally {
      await local.stop();
    }
  });
});
