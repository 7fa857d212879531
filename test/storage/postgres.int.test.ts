/**
 * The PostgreSQL backend against a real server ($POSTGRES_URL, default postgres://127.0.0.1:5432/test):
 * the shared storage contract (a random schema for this file, reset before every test, plus a
 * second pool on the same schema for cross-connection races), then what only PostgreSQL has:
 * migrations under concurrent opens, schema isolation, sequence locking and timeouts, the
 * server going away and coming back, and the error mapping.
 *
 * The server is shared with other tests: everything here lives in schemas named
 * wasi_app_test_<random>, dropped in afterAll. Without a reachable server the file is skipped,
 * except under CI, where it fails.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StorageFailure } from '../../host/storage/errors.ts';
import { STREAM_REVISION_CONSTRAINT } from '../../host/storage/postgres/append.ts';
import { withDefaultUser } from '../../host/storage/postgres/connection.ts';
import { isUniqueViolation, toStorageFailure } from '../../host/storage/postgres/errors.ts';
import { DEFAULT_SCHEMA, openPostgresStorage, SCHEMA_VERSION, type PostgresStorage, type PostgresStorageOptions } from '../../host/storage/postgres/index.ts';
import { runStorageContract } from './contract.ts';
import { runLeaseContract } from './lease-contract.ts';
import { startTcpProxy, targetOf } from '../support/tcp-proxy.ts';

const URL_ = withDefaultUser(process.env['POSTGRES_URL'] ?? 'postgres://127.0.0.1:5432/test');
const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());

async function probe(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const unreachable = await probe(URL_);

const created: string[] = [];
function freshSchema(): string {
  const name = `wasi_app_test_${randomBytes(6).toString('hex')}`;
  created.push(name);
  return name;
}

/** For inspecting and provoking the server: never used on anything but this file's schemas. */
const admin = unreachable === undefined ? new pg.Pool({ connectionString: URL_, max: 3 }) : undefined;
admin?.on('error', () => {});

afterAll(async () => {
  if (admin === undefined) return;
  for (const schema of created) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

function sql(text: string, values: unknown[] = []) {
  if (admin === undefined) throw new Error('no server');
  return admin.query(text, values);
}

async function failureOf(call: () => unknown): Promise<StorageFailure> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageFailure);
    return error as StorageFailure;
  }
  throw new Error('expected a StorageFailure');
}

const event = (eventType: string, payload = '{}') => ({ eventType, payload, metadata: '{}' });

if (unreachable !== undefined) {
  describe('postgres backend', () => {
    if (CI) {
      it('needs a reachable PostgreSQL under CI', () => {
        throw new Error(`PostgreSQL at ${URL_} is not reachable: ${unreachable}`);
      });
    } else {
      it.skip(`PostgreSQL at ${URL_} is not reachable (${unreachable}); set CI=true to make this a failure`, () => {});
    }
  });
} else {
  const schema = freshSchema();

  runStorageContract(
    'postgres',
    async () => {
      const backend = await openPostgresStorage({ url: URL_, schema });
      await backend.reset();
      return backend;
    },
    // A guard against a hang: 8 racing writers' 800 appends took 121 s beside other suites (load 34).
    { openSecond: async () => openPostgresStorage({ url: URL_, schema }), concurrencyTimeoutMs: 300_000 },
  );

  runLeaseContract('postgres', {
    factory: async () => {
      const backend = await openPostgresStorage({ url: URL_, schema });
      await backend.reset();
      return backend;
    },
    openWithTtl: async (leaseTtlMs) => openPostgresStorage({ url: URL_, schema, leaseTtlMs }),
  });

  describe('postgres backend specifics', () => {
    const opened: PostgresStorage[] = [];
    async function open(options: Partial<PostgresStorageOptions> = {}): Promise<PostgresStorage> {
      const storage = await openPostgresStorage({ url: URL_, schema, ...options });
      opened.push(storage);
      return storage;
    }
    afterEach(async () => {
      for (const storage of opened.splice(0).reverse()) await storage.close();
    });

    it('defaults to the wasi_app schema and rejects schema names that are not plain identifiers', async () => {
      expect(DEFAULT_SCHEMA).toBe('wasi_app');
      for (const bad of ['', 'a"b', 'a.b', '1abc', 'x'.repeat(64), 'drop table;']) {
        expect((await failureOf(() => openPostgresStorage({ url: URL_, schema: bad }))).code).toBe('invalid');
      }
    });

    it('migrates a fresh schema once even when three hosts open it at the same moment', async () => {
      const fresh = freshSchema();
      const three = await Promise.all([1, 2, 3].map(() => open({ schema: fresh })));
      expect(three.map((s) => s.schema)).toEqual([fresh, fresh, fresh]);
      await open({ schema: fresh }); // reopening applies nothing
      const { rows } = await sql(`SELECT version, name, applied_at FROM "${fresh}".schema_migrations ORDER BY version`);
      expect(rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
      expect(Math.abs(Number(rows[0].applied_at) - Date.now())).toBeLessThan(60_000);

      const tables = await sql('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [fresh]);
      expect(tables.rows.map((r) => r.tablename)).toEqual([
        'app_checkpoints',
        'app_documents',
        'app_event_sequence',
        'app_events',
        'app_kv',
        'app_removed_event_counts',
        'schema_migrations',
      ]);
      const indexes = await sql('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [fresh]);
      expect(indexes.rows.map((r) => r.indexname)).toEqual(expect.arrayContaining(['app_events_by_type', 'app_events_stream_revision_key', 'app_kv_by_expiry']));
      // All three work on the one store.
      await three[0]!.events.append('s', { tag: 'no-stream' }, [event('a')]);
      expect(await three[2]!.events.headSequence()).toBe(1n);
    });

    it('refuses a schema migrated by a newer build', async () => {
      const fresh = freshSchema();
      await (await open({ schema: fresh })).close();
      await sql(`INSERT INTO "${fresh}".schema_migrations (version, name, applied_at) VALUES ($1, 'future', 0)`, [SCHEMA_VERSION + 1]);
      expect((await failureOf(() => openPostgresStorage({ url: URL_, schema: fresh }))).code).toBe('internal');
    });

    it('reset() empties only its own app_ tables: not other tables, not other schemas, not the migration history', async () => {
      const other = freshSchema();
      const mine = await open();
      const theirs = await open({ schema: other });
      await mine.reset();
      await sql(`CREATE TABLE IF NOT EXISTS "${schema}".other_project (x text)`);
      await sql(`INSERT INTO "${schema}".other_project VALUES ('keep')`);
      await mine.events.append('s', { tag: 'any' }, [event('a')]);
      await mine.keyValue.set('ns', 'k', 'v', undefined);
      await theirs.events.append('s', { tag: 'any' }, [event('theirs'), event('theirs')]);
      await theirs.keyValue.set('ns', 'k', 'theirs', undefined);
      await theirs.projections.commit('p', 0n, 2n, []);

      await mine.reset();
      expect(await mine.events.headSequence()).toBe(0n);
      expect(await mine.keyValue.get('ns', 'k')).toBeUndefined();
      expect((await mine.events.append('s', { tag: 'no-stream' }, [event('a')]))[0]?.sequence).toBe(1n);

      expect(await theirs.events.headSequence()).toBe(2n);
      expect(await theirs.keyValue.get('ns', 'k')).toBe('theirs');
      expect(await theirs.projections.checkpoint('p')).toBe(2n);
      expect((await sql(`SELECT x FROM "${schema}".other_project`)).rows).toEqual([{ x: 'keep' }]);
      expect((await sql(`SELECT COUNT(*)::int AS n FROM "${schema}".schema_migrations`)).rows[0].n).toBe(SCHEMA_VERSION);
      await sql(`DROP TABLE "${schema}".other_project`);
      await mine.reset();
    });

    it('sequences beyond 2^53 come back exact', async () => {
      const storage = await open();
      await storage.reset();
      const start = 2n ** 53n;
      await sql(`UPDATE "${schema}".app_event_sequence SET value = $1`, [start.toString()]);
      const recorded = await storage.events.append('big', { tag: 'no-stream' }, [event('a'), event('b')]);
      expect(recorded.map((e) => e.sequence)).toEqual([start + 1n, start + 2n]);
      expect(await storage.events.readAll(start, 10)).toEqual(recorded);
      expect(await storage.events.headSequence()).toBe(start + 2n);
      expect((await sql(`SELECT sequence::text AS s FROM "${schema}".app_events ORDER BY sequence`)).rows.map((r) => r.s)).toEqual([
        (start + 1n).toString(),
        (start + 2n).toString(),
      ]);
      await storage.reset();
      expect((await storage.events.append('big', { tag: 'any' }, [event('c')]))[0]?.sequence).toBe(1n);
    });

    it('appends queue on the sequence row lock, commit in sequence order, and time out as unavailable', async () => {
      const storage = await open({ statementTimeoutMs: 300 });
      await storage.reset();
      await storage.events.append('s', { tag: 'any' }, [event('a')]);
      const holder = await admin!.connect();
      try {
        // Another appender's transaction in flight: it holds the lock and has claimed sequence 2.
        await holder.query('BEGIN');
        await holder.query(`UPDATE "${schema}".app_event_sequence SET value = value + 1`);
        const started = Date.now();
        const timedOut = await failureOf(() => storage.events.append('s', { tag: 'any' }, [event('b')]));
        expect(timedOut.code).toBe('unavailable');
        expect(Date.now() - started).toBeLessThan(5000);
        // Readers never wait for the lock.
        expect(await storage.events.headSequence()).toBe(1n);

        const waiting = (await open()).events.append('s', { tag: 'exact', val: 1n }, [event('c')]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await storage.events.readAll(0n, 10)).toHaveLength(1);
        // The other appender rolls back: its sequence is reused, so no gap.
        await holder.query('ROLLBACK');
        expect((await waiting).map((e) => [e.sequence, e.revision])).toEqual([[2n, 2n]]);
      } finally {
        await holder.query('ROLLBACK').catch(() => {});
        holder.release();
      }
      expect((await storage.events.readAll(0n, 10)).map((e) => e.sequence)).toEqual([1n, 2n]);
    });

    it('turns a (stream_id, revision) unique violation into a conflict with the actual revision, leaving no gap', async () => {
      const fresh = freshSchema();
      const storage = await open({ schema: fresh });
      await storage.events.append('s', { tag: 'any' }, [event('a')]);
      // Simulate a writer that bypassed the sequence lock: a trigger makes our insert collide.
      await sql(`CREATE FUNCTION "${fresh}".collide() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.stream_id = 's' AND NEW.revision = 2 AND NEW.event_type <> 'sneaky' THEN
            INSERT INTO "${fresh}".app_events (sequence, stream_id, revision, event_type, payload, metadata, recorded_at)
            VALUES (1000, 's', 2, 'sneaky', '{}', '{}', 0);
          END IF;
          RETURN NEW;
        END $$`);
      await sql(`CREATE TRIGGER collide BEFORE INSERT ON "${fresh}".app_events FOR EACH ROW EXECUTE FUNCTION "${fresh}".collide()`);
      const failure = await failureOf(() => storage.events.append('s', { tag: 'exact', val: 1n }, [event('b')]));
      expect(failure.payload).toEqual({ tag: 'conflict', val: { streamId: 's', expected: { tag: 'exact', val: 1n }, actual: 1n } });
      await sql(`DROP TRIGGER collide ON "${fresh}".app_events`);
      expect((await storage.events.append('s', { tag: 'exact', val: 1n }, [event('b')]))[0]).toMatchObject({
        sequence: 2n,
        revision: 2n,
      });
    });

    it('count-by-type can range-scan the event_type index for a prefix', async () => {
      const client = await admin!.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_seqscan = off');
        const { rows } = await client.query(`EXPLAIN SELECT event_type, COUNT(*) FROM "${schema}".app_events WHERE starts_with(event_type, 'user.') GROUP BY event_type`);
        const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/app_events_by_type/);
        expect(plan).toMatch(/Index Cond: \(\(event_type >= 'user\.'::text\) AND \(event_type < 'user\/'::text\)\)/);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });

    it('an unreachable server fails unavailable quickly, at open and without crashing', async () => {
      let started = Date.now();
      const refused = await failureOf(() => openPostgresStorage({ url: 'postgres://postgres@127.0.0.1:1/test', schema }));
      expect(refused.code).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(3000);

      // A server that accepts connections but never answers: bounded by the connect timeout.
      const silent = createServer(() => {});
      const sockets = new Set<Socket>();
      silent.on('connection', (socket) => sockets.add(socket.on('error', () => {})));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
      try {
        const address = silent.address();
        if (address === null || typeof address === 'string') throw new Error('no port');
        started = Date.now();
        const hung = await failureOf(() => openPostgresStorage({ url: `postgres://postgres@127.0.0.1:${address.port}/test`, schema, connectTimeoutMs: 300 }));
        expect(hung.code).toBe('unavailable');
        expect(Date.now() - started).toBeLessThan(3000);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });

    it('survives the server going away and recovers by itself when it returns', async () => {
      const proxy = await startTcpProxy(targetOf(URL_, 5432));
      const poolErrors: Error[] = [];
      try {
        const storage = await open({ url: proxy.url(URL_), onPoolError: (error) => poolErrors.push(error) });
        await storage.reset();
        await storage.events.append('s', { tag: 'no-stream' }, [event('before')]);
        await storage.keyValue.set('ns', 'k', 'v', undefined);

        // The server goes away: every connection drops, new ones are refused.
        await proxy.cut();
        await expect.poll(() => poolErrors.length).toBeGreaterThan(0);
        for (const call of [
          () => storage.events.append('s', { tag: 'any' }, [event('lost')]),
          () => storage.events.headSequence(),
          () => storage.keyValue.get('ns', 'k'),
          () => storage.projections.commit('p', 0n, 1n, []),
          () => storage.reset(),
        ]) {
          expect((await failureOf(call)).code).toBe('unavailable');
        }

        // It comes back on the same address: the pool reconnects on its own.
        await proxy.restore();
        expect(await storage.events.headSequence()).toBe(1n);
        expect(await storage.keyValue.get('ns', 'k')).toBe('v');
        expect((await storage.events.append('s', { tag: 'exact', val: 1n }, [event('after')]))[0]?.sequence).toBe(2n);
      } finally {
        await proxy.close();
      }
    });

    it('replaces pooled connections the server terminated', async () => {
      const poolErrors: Error[] = [];
      const fresh = freshSchema();
      const storage = await open({ schema: fresh, onPoolError: (error) => poolErrors.push(error) });
      await Promise.all([1, 2, 3].map((i) => storage.keyValue.set('ns', `k${i}`, 'v', undefined)));
      const killed = await sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [`wasi-app:${fresh}`]);
      expect(killed.rowCount).toBeGreaterThan(0);
      await expect.poll(() => poolErrors.length).toBeGreaterThan(0);
      expect(poolErrors.map((e) => toStorageFailure(e).code)).toEqual(poolErrors.map(() => 'unavailable'));
      // Whatever call meets a dead connection fails unavailable; the pool then heals.
      const deadline = Date.now() + 5000;
      for (;;) {
        try {
          expect(await storage.keyValue.get('ns', 'k1')).toBe('v');
          break;
        } catch (error) {
          expect((error as StorageFailure).code).toBe('unavailable');
          if (Date.now() > deadline) throw error;
        }
      }
    });

    it('a closed backend fails unavailable; close is idempotent', async () => {
      const storage = await openPostgresStorage({ url: URL_, schema });
      await storage.close();
      await storage.close();
      expect((await failureOf(() => storage.events.headSequence())).code).toBe('unavailable');
      expect((await failureOf(() => storage.events.append('s', { tag: 'any' }, [event('a')]))).code).toBe('unavailable');
    });

    it('text PostgreSQL cannot store (NUL) is invalid and writes nothing', async () => {
      const storage = await open();
      await storage.reset();
      expect((await failureOf(() => storage.events.append('s', { tag: 'any' }, [event('a', 'x\u0000y')]))).code).toBe('invalid');
      expect(await storage.events.headSequence()).toBe(0n);
      expect((await storage.events.append('s', { tag: 'any' }, [event('a')]))[0]?.sequence).toBe(1n);
    });

    it('maps PostgreSQL, pg and socket errors to platform errors in one place', () => {
      const server = (code: string, extra: Record<string, string> = {}) => Object.assign(new pg.DatabaseError('boom', 0, 'error'), { code, severity: 'ERROR', ...extra });
      const tag = (error: unknown) => toStorageFailure(error).payload.tag;
      for (const code of ['08006', '08001', '57P01', '57P02', '57P03', '53300', '53100', '57014', '55P03', '40001', '40P01']) {
        expect([code, tag(server(code))]).toEqual([code, 'unavailable']);
      }
      for (const code of ['23505', '42P01', '42601', 'XX000', '22003']) expect([code, tag(server(code))]).toEqual([code, 'internal']);
      expect(tag(server('22021'))).toBe('invalid');
      const errno = (code: string) => Object.assign(new Error(`connect ${code}`), { code, errno: -1, syscall: 'connect' });
      for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']) {
        expect(tag(errno(code))).toBe('unavailable');
      }
      expect(tag(new AggregateError([errno('ECONNREFUSED'), errno('ECONNREFUSED')], ''))).toBe('unavailable');
      for (const message of [
        'Connection terminated unexpectedly',
        'Connection terminated due to connection timeout',
        'timeout exceeded when trying to connect',
        'Query read timeout',
        'Cannot use a pool after calling end on the pool',
        'Client has encountered a connection error and is not queryable',
      ]) {
        expect([message, tag(new Error(message))]).toEqual([message, 'unavailable']);
      }
      expect(toStorageFailure(new TypeError('bug')).payload).toEqual({ tag: 'internal', val: 'bug' });
      const conflict = StorageFailure.conflict('s', { tag: 'any' }, 1n);
      expect(toStorageFailure(conflict)).toBe(conflict);
      expect(isUniqueViolation(server('23505', { constraint: STREAM_REVISION_CONSTRAINT }), STREAM_REVISION_CONSTRAINT)).toBe(true);
      expect(isUniqueViolation(server('23505', { constraint: 'app_kv_pkey' }), STREAM_REVISION_CONSTRAINT)).toBe(false);
      expect(isUniqueViolation(server('23503', { constraint: STREAM_REVISION_CONSTRAINT }), STREAM_REVISION_CONSTRAINT)).toBe(false);
    });

    it('connects as the operating-system user when the URL names none, like psql', () => {
      expect(withDefaultUser('postgres://127.0.0.1:5432/test', {})).toMatch(/^postgres:\/\/[^@/]+@127\.0\.0\.1:5432\/test$/);
      expect(withDefaultUser('postgres://app@127.0.0.1/test', {})).toBe('postgres://app@127.0.0.1/test');
      expect(withDefaultUser('postgres://127.0.0.1/test', { PGUSER: 'x' })).toBe('postgres://127.0.0.1/test');
      expect(withDefaultUser('/var/run/postgresql test', {})).toBe('/var/run/postgresql test');
    });
  });
}
