/**
 * Storage bounded by live data, on a real Node host over SQLite, PostgreSQL and Redis: many
 * password sign-ins (REST) with a 5 s session lifetime and AUTH_SESSION_RETENTION_SECONDS=0, a
 * wait, then the host's own timer runs a maintenance pass (--maintenance-interval). Afterwards the
 * raw store holds the session streams, retention entries and key-value entries of the live
 * sessions only (plus a constant), the storage-status counts are the same as before, and a
 * session signed in after the wait still works. Then the maintenance route itself is attacked:
 * a client, with or without the header, finds no such route.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cookieHeader, postJson, register, sessionOf } from '../auth/support.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

/** Sign-ins per backend: enough to see that nothing is kept per ended session (each costs an Argon2id hash). */
const SIGN_INS = 200;
const USERS = 5;
/**
 * Session lifetime. 5 s rather than 2: the live session signed in after the wait must outlive
 * the pass that follows it on a machine busy with other suites.
 */
const SESSION_SECONDS = 5;
const servers = isolation('retention');

interface RawCounts {
  sessionEvents: number;
  sessionStreams: number;
  retentionEntries: number;
  expiredEntries: number;
}

type Backend = { name: string; args: () => string[]; raw: (host: HostProcess) => Promise<RawCounts> };

const sqlite: Backend = {
  name: 'sqlite',
  args: () => ['--db', 'sqlite'],
  async raw(host) {
    const db = new DatabaseSync(join(host.dataDir, 'app.sqlite'), { readOnly: true });
    try {
      const one = (sql: string, ...params: Array<string | number>) => Number((db.prepare(sql).get(...params) as { n: number }).n);
      return {
        sessionEvents: one("SELECT COUNT(*) AS n FROM app_events WHERE stream_id LIKE 'auth-session-%'"),
        sessionStreams: one("SELECT COUNT(DISTINCT stream_id) AS n FROM app_events WHERE stream_id LIKE 'auth-session-%'"),
        retentionEntries: one("SELECT COUNT(*) AS n FROM app_documents WHERE collection IN ('auth_session_ends', 'auth_ended_sessions')"),
        expiredEntries: one('SELECT COUNT(*) AS n FROM app_kv WHERE expires_at <= ?', Date.now()),
      };
    } finally {
      db.close();
    }
  },
};

const postgresSchema = servers.schema();
const postgres: Backend = {
  name: 'postgres',
  args: () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', postgresSchema, '--realtime', 'local'],
  async raw() {
    const one = async (sql: string, params: unknown[] = []) => Number((await servers.pg().query<{ n: string }>(sql, params)).rows[0]!.n);
    const s = `"${postgresSchema}"`;
    return {
      sessionEvents: await one(`SELECT COUNT(*) AS n FROM ${s}.app_events WHERE stream_id LIKE 'auth-session-%'`),
      sessionStreams: await one(`SELECT COUNT(DISTINCT stream_id) AS n FROM ${s}.app_events WHERE stream_id LIKE 'auth-session-%'`),
      retentionEntries: await one(`SELECT COUNT(*) AS n FROM ${s}.app_documents WHERE collection IN ('auth_session_ends', 'auth_ended_sessions')`),
      expiredEntries: await one(`SELECT COUNT(*) AS n FROM ${s}.app_kv WHERE expires_at <= $1`, [Date.now()]),
    };
  },
};

const redisPrefix = servers.prefix();
const redis: Backend = {
  name: 'redis',
  args: () => ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', redisPrefix, '--realtime', 'local'],
  async raw() {
    const client = servers.redis();
    const keys = await client.keys(`${redisPrefix}*`);
    const sessionKeys = keys.filter((k) => k.startsWith(`${redisPrefix}stream:auth-session-`));
    let sessionEvents = 0;
    for (const key of sessionKeys) sessionEvents += await client.llen(key);
    const records = Object.values(await client.hgetall(`${redisPrefix}events`)).filter((r) => r.includes('"auth-session-')).length;
    const ends = await client.zcard(`${redisPrefix}docids:auth_session_ends`);
    const ended = await client.zcard(`${redisPrefix}docids:auth_ended_sessions`);
    // Redis expires entries itself: an expired key is gone (PX).
    return { sessionEvents: Math.max(sessionEvents, records), sessionStreams: sessionKeys.length, retentionEntries: ends + ended, expiredEntries: 0 };
  },
};

afterAll(() => servers.cleanup());

describe.runIf(unavailable === undefined).each([sqlite, postgres, redis])('storage bounded by live data: $name', (backend) => {
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.stop();
  });

  it(`${SIGN_INS} sign-ins with ${SESSION_SECONDS} s sessions, a wait, one maintenance pass: only the live session is left`, { timeout: 300_000 }, async () => {
    const issuer = await operatorIssuer();
    host = await startHost({
      args: [...backend.args(), '--maintenance-interval', '2'],
      env: {
        ...issuer.env,
        AUTH_SESSION_TTL_SECONDS: String(SESSION_SECONDS),
        AUTH_SESSION_RETENTION_SECONDS: '0',
        AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '100000',
        AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE: '100000',
        AUTH_LOGIN_MAX_FAILURES: '1000',
      },
    });
    const base = host.url;
    const users = [];
    for (let u = 0; u < USERS; u++) users.push(await register(base));
    for (let i = 0; users.length + i < SIGN_INS; i++) {
      const user = users[i % USERS]!;
      const response = await postJson(base, '/api/auth/password/login', { email: user.email, password: 'correct horse battery staple' });
      expect(response.status).toBe(200);
    }
    const status = async () => {
      const response = await fetch(`${base}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await issuer.mint()}` } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { events: Record<string, number> }).events;
    };
    const before = await status();
    expect(before['auth_session_issued']).toBe(SIGN_INS);
    // The timer has been removing expired sessions while the sign-ins ran (each lives SESSION_SECONDS).

    // Every session has ended; one signed in now is live.
    await new Promise((resolve) => setTimeout(resolve, SESSION_SECONDS * 1000 + 500));
    const live = await register(base);
    const passes = () => host!.logs().filter((l) => l['code'] === 'maintenance_pass');
    const removed = () => passes().reduce((sum, l) => sum + Number(l['session_streams_removed']), 0);
    // Every ended session's stream is removed, by the passes so far and the next one; the live one is not.
    await expect.poll(removed, { timeout: 30_000, interval: 200 }).toBe(SIGN_INS);

    const raw = await backend.raw(host);
    expect(raw.sessionStreams).toBeLessThanOrEqual(1);
    // The live session's issue event and its sign-in's trace (`auth_password_login_succeeded`).
    expect(raw.sessionEvents).toBeLessThanOrEqual(2);
    expect(raw.retentionEntries).toBeLessThanOrEqual(1);
    expect(raw.expiredEntries).toBe(0);
    const after = await status();
    expect(after).toEqual({ ...before, auth_session_issued: SIGN_INS + 1, auth_password_user_registered: USERS + 1, auth_password_login_succeeded: SIGN_INS + 1 });
    expect(await sessionOf(base, live.sessionId)).toMatchObject({ authenticated: true });
    expect(host.logs().filter((l) => l['code'] === 'maintenance_failed')).toEqual([]);
  });

  it('a client cannot reach the maintenance route, with or without the header', async () => {
    const base = host!.url;
    const attempts: Array<Record<string, string>> = [{}, { 'x-app-maintenance': 'guess-guess-guess-guess' }, { 'x-app-maintenance': '' }];
    for (const headers of attempts) {
      const response = await fetch(`${base}/api/internal/maintenance`, { method: 'POST', headers });
      expect(response.status).toBe(404);
    }
    const user = await register(base);
    const response = await fetch(`${base}/api/internal/maintenance`, { method: 'POST', headers: cookieHeader(user.sessionId) });
    expect(response.status).toBe(404);
  });
});
