/**
 * Concurrency: 16 clients × 50 increments through the real host → count 800, sequences and
 * revisions contiguous, nothing lost (checked in the SQLite file itself after shutdown).
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHost } from '../../harness/host-process.ts';

describe('concurrent increments', () => {
  it('16 clients × 50 increments → 800 with contiguous sequences and revisions', async () => {
    const host = await startHost();
    const client = async () => {
      for (let i = 0; i < 50; i++) {
        const response = await fetch(`${host.url}/api/counter/increment`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"amount":1}',
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    const view = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
    expect(view.count).toBe(800);
    expect(view.last_sequence).toBe(800);
    expect(await host.stop()).toBe(0);

    const db = new DatabaseSync(join(host.dataDir, 'app.sqlite'), { readOnly: true });
    try {
      const rows = db.prepare("SELECT sequence, revision FROM app_events WHERE stream_id = 'counter-global' ORDER BY sequence").all() as Array<{
        sequence: number;
        revision: number;
      }>;
      expect(rows).toHaveLength(800);
      rows.forEach((row, i) => {
        expect(Number(row.sequence)).toBe(i + 1);
        expect(Number(row.revision)).toBe(i + 1);
      });
    } finally {
      db.close();
    }
    // 800 sequential-per-client writes: ~10 s on a quiet machine, 30+ s on a loaded CI runner; a bound, not a timing check.
  }, 120_000);
});
