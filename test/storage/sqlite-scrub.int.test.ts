/**
 * erasure.scrub on a real SQLite file (host/storage/sqlite/scrub.ts, host/storage/scrubber.ts):
 * a removed stream's payload is gone from the database, -wal and -shm files once the scrub
 * returns; while another connection reads an older snapshot (a worker thread, `npm run backup`)
 * the scrub never blocks the event loop, returns after its short wait, and a background retry
 * finishes it once the reader lets go.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from '../../harness/host-process.ts';
import { jsonLogger } from '../../host/log.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import { Scrubber } from '../../host/storage/scrubber.ts';

/** How many times `marker` occurs in the bytes of the database's files. */
function copiesIn(dir: string, marker: string): number {
  return readdirSync(dir)
    .filter((name) => name.startsWith('app.sqlite'))
    .reduce((sum, name) => sum + readFileSync(join(dir, name)).toString('latin1').split(marker).length - 1, 0);
}

/** A store whose removed streams held `marker`; with `reader`, another connection reads the snapshot from before the removal. */
function store(marker: string, withReader = false) {
  const dir = tempDataDir('sqlite-scrub-');
  const storage = openSqliteStorage({ path: join(dir, 'app.sqlite') });
  const lines: Array<Record<string, unknown>> = [];
  const logger = jsonLogger((line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  // Enough rows that the WAL holds many frames with the marker in them.
  for (let i = 0; i < 50; i++) storage.events.append(`erased-${i}`, { tag: 'no-stream' }, [{ eventType: 'personal', payload: JSON.stringify({ marker, i }), metadata: '{}' }]);
  let reader: DatabaseSync | undefined;
  if (withReader) {
    reader = new DatabaseSync(join(dir, 'app.sqlite'));
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM app_events').get();
  }
  for (let i = 0; i < 50; i++) storage.events.removeStream(`erased-${i}`, { tag: 'any' });
  return { dir, storage, lines, logger, reader };
}

/** The longest gap between ticks of a 5 ms timer while `work` runs: how long the event loop was held. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

describe('erasure.scrub on SQLite', () => {
  it('leaves no copy of a removed stream in the database, -wal or -shm file', async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const { dir, storage, logger } = store(marker);
    expect(copiesIn(dir, marker)).toBeGreaterThan(0);
    await new Scrubber(storage, logger).scrub();
    expect(copiesIn(dir, marker)).toBe(0);
    expect(statSync(join(dir, 'app.sqlite-wal')).size).toBe(0);
    storage.close();
  });

  it('waits for a reader without blocking the event loop, then finishes in the background once it lets go', async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const { dir, storage, lines, logger, reader } = store(marker, true);
    const scrubber = new Scrubber(storage, logger, { waitMs: 300, retryMs: 50 });
    const started = performance.now();
    const stall = await longestStall(() => scrubber.scrub());
    // The call gave up after its wait, having held the loop no longer than one attempt at a time.
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
    expect(stall).toBeLessThan(150);
    expect(lines.filter((l) => l['code'] === 'store_scrub_deferred')).toHaveLength(1);
    expect(copiesIn(dir, marker)).toBeGreaterThan(0);

    reader!.exec('COMMIT');
    reader!.close();
    await expect.poll(() => lines.some((l) => l['code'] === 'store_scrubbed'), { timeout: 5_000 }).toBe(true);
    expect(copiesIn(dir, marker)).toBe(0);
    scrubber.stop();
    storage.close();
  });
});
