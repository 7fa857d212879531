/**
 * The auth service on the Redis backend (a random key prefix, deleted afterwards): the same WIT
 * storage calls (no-stream email claims, key-value counters with TTL, count-by-type, projection
 * commits) behave as on SQLite. Two hosts share the prefix: an email claimed on one is taken on
 * the other, and a session issued by one is valid on the other.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefixed } from '../../host/storage/redis/index.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { cookieHeader, expectError, PASSWORD, postJson, register, sessionOf } from './support.ts';
import { redisAnswers } from '../../harness/servers.ts';

const operator = await operatorIssuer();
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const PREFIX = `test-auth-${process.pid}-${Date.now().toString(36)}:`;

const redisUp = (await redisAnswers(REDIS_URL)) === undefined;
if (!redisUp && process.env['CI'] === 'true') throw new Error(`Redis is required under CI=true (${REDIS_URL})`);

describe.runIf(redisUp)('auth on Redis, two hosts', () => {
  let a: HostProcess;
  let b: HostProcess;

  beforeAll(async () => {
    const options = { args: ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', PREFIX, '--realtime', 'local'], env: { ...operator.env, AUTH_LOGIN_MAX_FAILURES: '2' } };
    a = await startHost(options);
    b = await startHost(options);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const admin = new Redis(REDIS_URL);
    await deletePrefixed(admin, PREFIX);
    await admin.quit();
  });

  it('shares accounts, sessions and the failed-login lock between hosts', async () => {
    const { email, sessionId } = await register(a.url);
    // Host b knows the email is taken: it writes nothing (the answer is the same as for a free one),
    // so the storage status below still counts one registration.
    expect((await postJson(b.url, '/api/auth/password/register', { email, password: 'another long password' })).status).toBe(202);
    expect(await sessionOf(b.url, sessionId)).toMatchObject({ authenticated: true, email });

    await expectError(await postJson(a.url, '/api/auth/password/login', { email, password: 'wrong password 1' }), 401, 'invalid_credentials');
    await expectError(await postJson(b.url, '/api/auth/password/login', { email, password: 'wrong password 2' }), 401, 'invalid_credentials');
    const locked = await postJson(a.url, '/api/auth/password/login', { email, password: PASSWORD });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(locked, 429, 'rate_limited');

    expect((await fetch(`${b.url}/api/auth/logout`, { method: 'POST', headers: cookieHeader(sessionId) })).status).toBe(200);
    expect(await sessionOf(a.url, sessionId)).toEqual({ authenticated: false });

    const token = await operator.mint({ sub: 'op' }, { expiresIn: '2m' });
    const status = (await (await fetch(`${a.url}/api/auth/storage/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      events: Record<string, number>;
      latest_sequence: number;
      projections: Array<{ checkpoint: number }>;
    };
    expect(status.events).toMatchObject({ auth_password_user_registered: 1, auth_password_login_succeeded: 1, auth_session_issued: 1, auth_session_revoked: 1 });
    expect(status.projections[0]!.checkpoint).toBe(status.latest_sequence);
  });
});
