/**
 * A claim that counts for nobody is taken over, against the real host (in process, the component
 * on the Node host) on SQLite, PostgreSQL and Redis, mail through a real SMTP server (aiosmtpd):
 * an address change is stopped after its first append (the store refuses the append to the
 * user's address record, as a host crash or a store failure between the two would leave it), so
 * the new address's stream claims it for nobody. Then another account registers that address: it
 * signs in with it, and the first account keeps its old address and cannot move there any more.
 * Once the taker is deleted, no file of the SQLite store keeps that address or its hash.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { StorageFailure } from '../../host/platform-answer.ts';
import { openPostgresStorage } from '../../host/storage/postgres/index.ts';
import { openRedisStorage } from '../../host/storage/redis/index.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { freePort, tempDataDir } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { requireTool } from '../../harness/tools.ts';
import { normalizeEmail } from '../../src/auth/domain/email.ts';
import { sha256Hex } from '../../src/contract/tokens.ts';
import { rawFiles } from '../support/raw-store.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { withAppends } from '../support/wrapped-appends.ts';
import { cookieHeader, PASSWORD, postJson, register, sessionOf, uniqueEmail } from './support.ts';

const python = requireTool('aiosmtpd');
const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const servers = isolation('orphan_claim');
afterAll(() => servers.cleanup());

const CHANGE_SUBJECT = 'Confirm your new email address';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

type Backend = { name: string; open: (dataDir: string) => Promise<StorageBackend> | StorageBackend; needsServers: boolean };
const backends: Backend[] = [
  { name: 'sqlite', open: (dataDir) => openSqliteStorage({ path: join(dataDir, 'app.sqlite') }), needsServers: false },
  { name: 'postgres', open: () => openPostgresStorage({ url: POSTGRES_URL, schema: servers.schema() }), needsServers: true },
  { name: 'redis', open: () => openRedisStorage({ url: REDIS_URL, prefix: servers.prefix() }), needsServers: true },
];

describe.runIf(python !== undefined).each(backends)('a move stopped after its first append, then another registration: $name', (backend) => {
  let sink: SmtpSink;
  let host: RunningHost;
  let url: string;
  let dataDir: string;
  /** The stream whose appends the store refuses (the address record of the account whose move stops). */
  let refused: string | undefined;

  beforeAll(async () => {
    if (backend.needsServers && unavailable !== undefined) return;
    sink = await startSmtpSink(python!);
    const port = await freePort();
    url = `http://localhost:${port}`;
    const env = { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: url };
    dataDir = tempDataDir('orphan-claim-');
    const config = loadConfig(['--port', String(port), '--data-dir', dataDir, '--instances-min', '1'], env);
    const storage = withAppends(await backend.open(dataDir), (append, streamId, expected, events) => {
      if (streamId === refused) throw StorageFailure.unavailable('the store stopped (test)');
      return append(streamId, expected, events);
    });
    host = await startHost(
      config,
      env,
      jsonLogger(() => undefined),
      { storage },
    );
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  const login = (email: string, password = PASSWORD) => postJson(url, '/api/auth/password/login', { email, password });
  const changeLink = async (sessionId: string, email: string) => {
    const from = sink.messages().length;
    expect((await postJson(url, '/api/auth/email/change', { email, password: PASSWORD }, cookieHeader(sessionId))).status).toBe(202);
    return tokenOf(linkIn(await sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === CHANGE_SUBJECT, { from }), '/confirm-email-change'));
  };

  it.skipIf(backend.needsServers && unavailable !== undefined)(
    'the address the stopped move claimed is registered by another account, which signs in with it',
    async () => {
      const first = await register(url);
      const next = uniqueEmail('orphan');
      const token = await changeLink(first.sessionId, next);
      refused = `auth-address-${first.userId}`;
      const stopped = await postJson(url, '/api/auth/email/change/confirm', { token });
      refused = undefined;
      expect(stopped.status).toBeGreaterThanOrEqual(500);
      // One claim counts: the old address's.
      expect((await login(first.email)).status).toBe(200);
      expect((await login(next)).status).toBe(401);
      expect((await sessionOf(url, first.sessionId))['email']).toBe(first.email);

      const second = await register(url, next, 'the second account password');
      expect(second.userId).not.toBe(first.userId);
      expect((await login(next)).status).toBe(401);
      expect((await sessionOf(url, second.sessionId))['email']).toBe(next);
      // The first account keeps its address, and moving to the taken one is refused.
      expect((await login(first.email)).status).toBe(200);
      const refusedMove = await postJson(url, '/api/auth/email/change/confirm', { token: await changeLink(first.sessionId, next) });
      expect(refusedMove.status).toBe(409);
      expect((await sessionOf(url, first.sessionId))['email']).toBe(first.email);
      expect((await login(next, 'the second account password')).status).toBe(200);

      // The taker deleted: on SQLite no byte of the data directory keeps the address or its hash,
      // though the first account (whose claim it took over) is still there; that one deleted, nor
      // its address record.
      if (backend.name !== 'sqlite') return;
      const address = { address: next, hash: await sha256Hex(normalizeEmail(next)) };
      const record = `auth-address-${first.userId}`;
      const before = rawFiles(dataDir);
      expect([...Object.values(address), record].every((value) => before.includes(value))).toBe(true);
      const remove = (sessionId: string, password: string) =>
        fetch(`${url}/api/auth/account`, { method: 'DELETE', headers: { ...cookieHeader(sessionId), 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
      expect((await remove(second.sessionId, 'the second account password')).status).toBe(204);
      expect(Object.entries(address).filter(([, value]) => rawFiles(dataDir).includes(value))).toEqual([]);
      expect((await remove(first.sessionId, PASSWORD)).status).toBe(204);
      expect(rawFiles(dataDir).includes(record)).toBe(false);
    },
    60_000,
  );
});
