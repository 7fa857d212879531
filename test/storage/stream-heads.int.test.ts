/**
 * The response cache's validation read, `streamHeads` (host/storage/<backend>/stream-heads.ts),
 * on every backend: the newest event of several streams at once, in the order asked, zeros for a
 * stream without events, and different after a wipe and refill to the same revision.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../host/storage/postgres/index.ts';
import { openRedisStorage } from '../../host/storage/redis/index.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import { NO_HEAD } from '../../host/storage/stream-heads.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';

const event = { eventType: 'incremented', payload: '{}', metadata: '{}' };
const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));
const servers = isolation('heads');
const opened: StorageBackend[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  await servers.cleanup();
});

const backends: Array<[string, () => Promise<StorageBackend>, boolean]> = [
  ['sqlite', async () => openSqliteStorage({ path: join(tempDataDir('heads-'), 'app.sqlite') }), true],
  ['postgres', () => openPostgresStorage({ url: POSTGRES_URL, schema: servers.schema() }), unavailable === undefined],
  ['redis', () => openRedisStorage({ url: REDIS_URL, prefix: servers.prefix() }), unavailable === undefined],
];

for (const [name, open, available] of backends) {
  describe.runIf(available)(`streamHeads() on ${name}`, () => {
    it('returns the newest event of each stream in the order asked, zeros without events', async () => {
      const storage = await open();
      opened.push(storage);
      const heads = storage.streamHeads!;
      expect(await heads(['a', 'b'])).toEqual([NO_HEAD, NO_HEAD]);
      await storage.events.append('a', { tag: 'any' }, [event, event]);
      const [recorded] = await storage.events.append('b', { tag: 'any' }, [event]);
      const [newestA] = await storage.events.readStream('a', { direction: 'backward', limit: 1 });
      const result = await heads(['b', 'missing', 'a']);
      expect(result).toEqual([
        { revision: 1n, sequence: recorded!.sequence, recordedAt: recorded!.recordedAt },
        NO_HEAD,
        { revision: 2n, sequence: newestA!.sequence, recordedAt: newestA!.recordedAt },
      ]);
      expect(await heads([])).toEqual([]);
    });

    it('tells a refilled store from the old one at the same revision', async () => {
      const storage = await open();
      opened.push(storage);
      await storage.events.append('s', { tag: 'any' }, [event]);
      await storage.events.append('other', { tag: 'any' }, [event]);
      const [before] = await storage.streamHeads!(['s']);
      await storage.reset();
      await new Promise((r) => setTimeout(r, 5));
      await storage.events.append('other', { tag: 'any' }, [event]);
      await storage.events.append('s', { tag: 'any' }, [event]);
      const [after] = await storage.streamHeads!(['s']);
      expect(after!.revision).toBe(before!.revision);
      expect(after).not.toEqual(before);
    });
  });
}
