/**
 * Sign-in traces that stop growing (docs/storage.md, "Retention"), on a real Node host over
 * SQLite and PostgreSQL, counting the raw store's rows: 200 password sign-ins with a 2 s session
 * lifetime, AUTH_SESSION_RETENTION_SECONDS=1 and a maintenance pass every second. What must hold:
 * 20 s after the last sign-in the store holds at most 40 rows more than before them (each sign-in's
 * `auth_password_login_succeeded` went with the session it opened), and the storage-status totals
 * still count every sign-in.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, sharedServers } from '../../harness/servers.ts';
import { FAST_RETENTION_ARGS, FAST_RETENTION_ENV } from '../support/fast-retention.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { sqliteCounts } from '../support/sqlite-counts.ts';
import { PASSWORD, postJson, register } from './support.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL under CI', () => expect.fail(unavailable));

const SIGN_INS = 200;
const MAX_ROWS_LEFT = 40;
const WAIT_MS = 20_000;
const servers = isolation('traces');
afterAll(() => servers.cleanup());

/** Rows per table, and the rows of user streams (where sign-in traces used to pile up). */
interface RowCounts {
  total: number;
  userStreamEvents: number;
}

type Backend = { name: string; args: () => string[]; rows: (host: HostProcess) => Promise<RowCounts> };

const sqlite: Backend = {
  name: 'sqlite',
  args: () => ['--db', 'sqlite'],
  async rows(host) {
    return sqliteCounts(host.dataDir, { userStreamEvents: "SELECT COUNT(*) AS n FROM app_events WHERE stream_id LIKE 'auth-user-%'" });
  },
};

const schema = servers.schema();
const postgres: Backend = {
  name: 'postgres',
  args: () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'],
  async rows() {
    const pool = servers.pg();
    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);
    const { rows } = await pool.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema]);
    let total = 0;
    for (const { tablename } of rows) total += await count(`SELECT COUNT(*) AS n FROM "${schema}"."${tablename}"`);
    return { total, userStreamEvents: await count(`SELECT COUNT(*) AS n FROM "${schema}".app_events WHERE stream_id LIKE 'auth-user-%'`) };
  },
};

const backends = unavailable === undefined ? [sqlite, postgres] : [sqlite];

describe.each(backends)('sign-in traces kept as long as their sessions: $name', (backend) => {
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.stop();
  });

  it(`${SIGN_INS} sign-ins with 2 s sessions leave at most ${MAX_ROWS_LEFT} rows more ${WAIT_MS / 1000} s later; the totals count them all`, { timeout: 480_000 }, async () => {
    const issuer = await operatorIssuer();
    host = await startHost({
      args: [...backend.args(), ...FAST_RETENTION_ARGS],
      env: { ...issuer.env, ...FAST_RETENTION_ENV },
    });
    const base = host.url;
    const status = async () => {
      const response = await fetch(`${base}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await issuer.mint()}` } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { events: Record<string, number> }).events;
    };
    const user = await register(base);
    // Its first session has ended and gone: the store is at its resting size.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const countsBefore = await status();
    const before = await backend.rows(host);

    for (let i = 0; i < SIGN_INS; i++) {
      const response = await postJson(base, '/api/auth/password/login', { email: user.email, password: PASSWORD });
      expect(response.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));

    const after = await backend.rows(host);
    expect(after.userStreamEvents, 'sign-in traces in the user stream').toBeLessThanOrEqual(before.userStreamEvents);
    expect(after.total - before.total, 'rows more than before').toBeLessThanOrEqual(MAX_ROWS_LEFT);
    const countsAfter = await status();
    expect(countsAfter['auth_password_login_succeeded']).toBe(countsBefore['auth_password_login_succeeded']! + SIGN_INS);
    expect(countsAfter['auth_session_issued']).toBe(countsBefore['auth_session_issued']! + SIGN_INS);
    expect(host.logs().filter((l) => l['code'] === 'maintenance_failed')).toEqual([]);
  });
});
