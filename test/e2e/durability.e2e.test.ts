/**
 * SQLite durability: a command that got its 200 survives `kill -9` of the host and a restart.
 */
import { describe, expect, it } from 'vitest';
import { startHost, tempDataDir } from '../../harness/host-process.ts';

describe('durability on SQLite', () => {
  it('keeps every acknowledged command across kill -9 and restart', async () => {
    const dataDir = tempDataDir();
    const first = await startHost({ dataDir });
    let acknowledged = 0;
    for (let i = 0; i < 25; i++) {
      const response = await fetch(`${first.url}/api/counter/increment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 2 }),
      });
      expect(response.status).toBe(200);
      acknowledged += 2;
    }
    await first.kill();

    const second = await startHost({ dataDir });
    try {
      const view = (await (await fetch(`${second.url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
      expect(view.count).toBe(acknowledged);
      expect(view.last_sequence).toBe(25);
      const next = await fetch(`${second.url}/api/counter/increment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1 }),
      });
      expect(((await next.json()) as { count: number }).count).toBe(acknowledged + 1);
    } finally {
      await second.stop();
    }
  });
});
