import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../types.ts';
import type { StreamLeaseBackend } from '../../leases/port.ts';
import { openSqliteStorage } from './index.ts';

const event = (n: number): NewEvent => ({ eventType: 'Noted', payload: JSON.stringify({ n }), metadata: '{}' });
const revisions = (events: readonly RecordedEvent[] | undefined) => events?.map((e) => Number(e.revision));
const exact = (val: bigint): ExpectedRevision => ({ tag: 'exact', val });

/** A fresh store in a temporary directory. */
function countedStore() {
  const storage = openSqliteStorage({ path: join(mkdtempSync(join(tmpdir(), 'recent-tails-')), 'app.sqlite') });
  return storage;
}

async function takeLease(leases: StreamLeaseBackend, streamId: string, tail = 4) {
  const held = await leases.acquire(streamId, 1_000, tail);
  if (held === undefined) throw new Error('no lease');
  return held;
}

describe('SQLite leases keep the tail between turns', () => {
  it('a turn after this host’s own turn sees the tail its append left, including the new events', async () => {
    const storage = countedStore();
    const first = await takeLease(storage.leases, 's');
    expect(first.tail).toEqual([]);
    await first.append({ tag: 'no-stream' }, [event(1), event(2)], { release: true });
    const second = await takeLease(storage.leases, 's');
    expect(revisions(second.tail)).toEqual([2, 1]);
    await second.append(exact(2n), [event(3)], { release: true });
    const third = await takeLease(storage.leases, 's');
    expect(revisions(third.tail)).toEqual([3, 2, 1]);
    expect(third.tail).toEqual(storage.events.readStream('s', { direction: 'backward', limit: 4 }));
    await third.release();
  });

  it('sees an append made without the lease between two turns', async () => {
    const storage = countedStore();
    const first = await takeLease(storage.leases, 's');
    await first.append({ tag: 'no-stream' }, [event(1)], { release: true });
    storage.events.append('s', exact(1n), [event(2)]);
    const second = await takeLease(storage.leases, 's');
    expect(revisions(second.tail)).toEqual([2, 1]);
    expect(second.tail?.[0]?.payload).toBe(JSON.stringify({ n: 2 }));
    await second.release();
  });

  it('sees a stream removed and written again up to the same revision (the newest event’s sequence differs)', async () => {
    const storage = countedStore();
    const first = await takeLease(storage.leases, 's');
    await first.append({ tag: 'no-stream' }, [event(1)], { release: true });
    storage.events.removeStream('s', { tag: 'any' });
    storage.events.append('s', { tag: 'no-stream' }, [event(9)]);
    const second = await takeLease(storage.leases, 's');
    expect(second.tail?.map((e) => e.payload)).toEqual([JSON.stringify({ n: 9 })]);
    await second.release();
  });

  it('reads again when a turn asks for a longer tail than the one kept, and keeps a refused append out', async () => {
    const storage = countedStore();
    const first = await takeLease(storage.leases, 's', 2);
    await first.append({ tag: 'no-stream' }, [event(1), event(2), event(3)], { release: true });
    const second = await takeLease(storage.leases, 's', 8);
    expect(revisions(second.tail)).toEqual([3, 2, 1]);
    expect(() => second.append(exact(1n), [event(4)], { release: true })).toThrow(/conflict|expected/i);
    const third = await takeLease(storage.leases, 's', 8);
    expect(revisions(third.tail)).toEqual([3, 2, 1]);
    await third.release();
  });

  it('ends the lease with the turn’s last append, and a refused last append still ends it', async () => {
    const storage = countedStore();
    const first = await takeLease(storage.leases, 's');
    await first.append({ tag: 'no-stream' }, [event(1)], { release: true });
    // Released in the append's transaction: the next turn comes at once.
    const second = await storage.leases.acquire('s', 0, 4);
    expect(second).toBeDefined();
    expect(() => second!.append(exact(7n), [event(2)], { release: true })).toThrow();
    const third = await storage.leases.acquire('s', 0, 4);
    expect(third).toBeDefined();
    expect(third!.token).toBeGreaterThan(second!.token);
    await third!.release();
  });
});
