/**
 * The host's mail outbox (host/mail/outbox.ts, host/mail/delivery.ts) on every store it runs on:
 * SQLite, PostgreSQL, Redis, and the standalone file store (`npm run mail:drain`). A message
 * queued survives the store being closed and opened again; racing deliverers claim it once; a
 * failure is retried after its back-off; too many failures set it aside; a delivered one is gone.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLogger } from '../../host/log.ts';
import { MailDelivery } from '../../host/mail/delivery.ts';
import { MailOutbox, type OutboxStore } from '../../host/mail/outbox.ts';
import type { MailTransport } from '../../host/mail/transport.ts';
import { MAIL_OUTBOX } from '../../src/contract/mail-outbox.ts';
import type { MailSecretHashes } from '../../src/contract/mail-secrets.ts';
import { sha256Hex } from '../../src/contract/tokens.ts';
import { openPostgresStorage } from '../../host/storage/postgres/index.ts';
import { openRedisStorage } from '../../host/storage/redis/index.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';

const servers = await sharedServers();
const iso = isolation('mail');
afterAll(() => iso.cleanup());

interface Opened {
  store: OutboxStore;
  /** The same store's key-value, where the deliverer writes the hashes of the secrets it makes. */
  hashes: MailSecretHashes & { get(namespace: string, key: string): Promise<string | undefined> | string | undefined };
  close(): Promise<void> | void;
}

const MESSAGE = { sender: 'Counter <no-reply@example.com>', recipient: 'someone@example.com', subject: 'Hello', text: 'a link' };

/** A transport that fails while `down` and records what it accepted. */
function flakyTransport() {
  const sent: string[] = [];
  const transport: MailTransport & { down: boolean; sent: string[] } = {
    kind: 'test',
    down: true,
    sent,
    async send(message) {
      if (transport.down) throw new Error('connect ECONNREFUSED');
      sent.push(message.subject);
    },
    close() {},
  };
  return transport;
}

function contract(name: string, open: () => Promise<Opened>, skip?: string) {
  describe.skipIf(skip !== undefined)(`the mail outbox on ${name}`, () => {
    it('keeps a queued message across reopening; claims it once among racing deliverers; removes it once delivered', async () => {
      let opened = await open();
      const id = await new MailOutbox(opened.store).enqueue(MESSAGE, 1000);
      await opened.close();
      opened = await open();
      const outbox = new MailOutbox(opened.store);
      expect((await outbox.due(1000, 10)).map((m) => m.id)).toContain(id);
      const claims = await Promise.all(Array.from({ length: 5 }, () => outbox.claim(id, 1000, 61_000)));
      expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
      // Claimed: not due again until the claim runs out.
      expect((await outbox.due(2000, 10)).map((m) => m.id)).not.toContain(id);
      expect((await outbox.due(61_000, 10)).map((m) => m.id)).toContain(id);
      await outbox.delivered(id);
      expect((await outbox.due(100_000, 10)).map((m) => m.id)).not.toContain(id);
      await opened.close();
    });

    it('retries after the back-off and sets a message aside after the last attempt', async () => {
      const opened = await open();
      const outbox = new MailOutbox(opened.store);
      let now = 5000;
      const transport = flakyTransport();
      const delivery = new MailDelivery(
        outbox,
        opened.hashes,
        transport,
        jsonLogger(() => undefined),
        { maxAttempts: 3, retryMs: 1000, pollMs: 60_000, claimMs: 30_000, now: () => now },
      );
      const kept = await outbox.enqueue({ ...MESSAGE, subject: 'kept' }, now);
      expect(await delivery.runOnce()).toBe(0);
      now += 500;
      expect(await delivery.runOnce()).toBe(0); // not due yet: the first retry waits 1 s
      now += 600;
      transport.down = false;
      expect(await delivery.runOnce()).toBe(1);
      expect(transport.sent).toEqual(['kept']);
      expect((await outbox.due(now + 10_000_000, 10)).map((m) => m.id)).not.toContain(kept);

      transport.down = true;
      const dead = await outbox.enqueue({ ...MESSAGE, subject: 'dead' }, now);
      for (let i = 0; i < 3; i++) {
        await delivery.runOnce();
        now += 10_000;
      }
      expect((await outbox.due(now + 10_000_000, 10)).map((m) => m.id)).not.toContain(dead);
      const letters = await outbox.deadLetters(10);
      expect(letters.find((l) => l.id === dead)?.entry).toMatchObject({ attempts: 3, last_error: 'connect ECONNREFUSED' });
      await delivery.stop();
      await opened.close();
    });

    it("makes a message's secret at each delivery attempt: the store keeps the newest one's hash and never a secret", async () => {
      const opened = await open();
      const outbox = new MailOutbox(opened.store);
      let now = 10_000;
      const texts: string[] = [];
      const transport = flakyTransport();
      const recording: MailTransport = { kind: 'test', send: async (message) => (texts.push(message.text), transport.send(message)), close() {} };
      const delivery = new MailDelivery(
        outbox,
        opened.hashes,
        recording,
        jsonLogger(() => undefined),
        { maxAttempts: 3, retryMs: 1000, pollMs: 60_000, claimMs: 30_000, now: () => now },
      );
      const key = `link-${crypto.randomUUID()}`;
      const placeholder = '{test-secret}';
      const id = await outbox.enqueue(
        { ...MESSAGE, text: `open /x?token=id.${placeholder} soon`, secrets: [{ placeholder, namespace: 'test-mail-secret', key, ttl_ms: 60_000 }] },
        now,
      );
      const secretIn = (text: string | undefined) => /token=id\.([A-Za-z0-9_-]{43}) soon/.exec(text ?? '')?.[1];
      const queuedBody = async () => (await opened.store.getDocument({ collection: MAIL_OUTBOX.collection, id }))?.body ?? '';

      expect(await delivery.runOnce()).toBe(0); // the transport is down: tried, failed
      const first = secretIn(texts[0])!;
      expect(await opened.hashes.get('test-mail-secret', key)).toBe(await sha256Hex(first));
      expect(await queuedBody()).toContain(placeholder);
      expect(await queuedBody()).not.toContain(first);

      now += 1100;
      transport.down = false;
      expect(await delivery.runOnce()).toBe(1);
      const second = secretIn(texts[1])!;
      expect(second).not.toBe(first);
      expect(await opened.hashes.get('test-mail-secret', key)).toBe(await sha256Hex(second));
      await delivery.stop();
      await opened.close();
    });
  });
}

const sqlitePath = join(tempDataDir('mail-sqlite-'), 'app.sqlite');
contract('SQLite', async () => {
  const storage = openSqliteStorage({ path: sqlitePath });
  return { store: storage.projections, hashes: storage.keyValue, close: () => storage.close() };
});

const schema = iso.schema();
contract(
  'PostgreSQL',
  async () => {
    const storage = await openPostgresStorage({ url: POSTGRES_URL, schema });
    return { store: storage.projections, hashes: storage.keyValue, close: () => storage.close() };
  },
  servers,
);

const prefix = iso.prefix();
contract(
  'Redis',
  async () => {
    const storage = await openRedisStorage({ url: REDIS_URL, prefix });
    return { store: storage.projections, hashes: storage.keyValue, close: () => storage.close() };
  },
  servers,
);

const fileDir = tempDataDir('mail-files-');
contract('the standalone file store', async () => {
  const storage = openFileStorage(nodeFileSystem(fileDir));
  return { store: storage.projections, hashes: storage.keyValue, close: () => undefined };
});
