/**
 * The host never blocks: while one guest waits on a slow storage call, other requests are
 * served by other instances. Storage is wrapped so every append waits on a gate the test opens
 * (an asynchronous wait, as PostgreSQL or Redis calls are); reads stay fast. The gate makes the
 * ordering deterministic however loaded the machine is.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost as startInProcess, type RunningHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { withAppends } from '../support/wrapped-appends.ts';

let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => {
  openGate = resolve;
});
let appendsWaiting = 0;

function withGatedAppends(storage: StorageBackend): StorageBackend {
  return withAppends(storage, async (append, ...args) => {
    appendsWaiting++;
    await gate;
    return append(...args);
  });
}

let host: RunningHost;
beforeAll(async () => {
  const config = loadConfig(['--port', '0', '--instances-min', '2'], {});
  const storage = withGatedAppends(openSqliteStorage({ path: join(tempDataDir(), 'app.sqlite') }));
  host = await startInProcess(
    config,
    {},
    jsonLogger(() => undefined),
    { storage },
  );
});
afterAll(async () => {
  await host?.stop();
});

describe('non-blocking host', () => {
  it('serves reads while several commands wait on storage', async () => {
    const url = `http://127.0.0.1:${host.port}`;
    const order: string[] = [];
    const increments = Array.from({ length: 8 }, (_, i) =>
      fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }).then(async (r) => {
        expect(r.status).toBe(200);
        await r.arrayBuffer();
        order.push(`increment-${i}`);
      }),
    );
    // Wait until one command is parked inside its append; the others queue for their turn on the
    // stream behind it (stream leases, docs/scaling.md), each holding its own instance meanwhile.
    while (appendsWaiting < 1) await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 5; i++) {
      const view = await fetch(`${url}/api/counter/view`);
      expect(view.status).toBe(200);
      await view.arrayBuffer();
      order.push(`view-${i}`);
    }
    // All five reads were served while the commands were still waiting.
    expect(order).toEqual(['view-0', 'view-1', 'view-2', 'view-3', 'view-4']);
    openGate();
    await Promise.all(increments);
    const final = (await (await fetch(`${url}/api/counter/view`)).json()) as { count: number };
    expect(final.count).toBe(8);
    // Several instances were busy at once: the pool grew past its minimum.
    expect(host.pool.stats.alive).toBeGreaterThan(2);
  });
});
