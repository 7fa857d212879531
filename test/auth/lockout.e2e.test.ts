/**
 * The lockout race against a real host (docs/security.md): a burst of concurrent wrong
 * guesses gets no more password verifications than the limit; the lock holds for the
 * (email, client address) pair only, so another address still signs in; a client cannot pose as
 * another address with the host's header; per-client and global throttles bound registrations and
 * OAuth starts. Two client addresses: requests leave from 127.0.0.1 and 127.0.0.2 (Linux loopback).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { PASSWORD, postFrom, register, uniqueEmail } from './support.ts';
import { inOneMinuteWindow } from '../support/minute-window.ts';

describe('password lockout and throttles', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({ env: { AUTH_LOGIN_MAX_FAILURES: '3', AUTH_LOGIN_LOCKOUT_SECONDS: '600', AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '60' } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
  });

  it('a burst of 12 concurrent wrong guesses gets at most 3 verifications; the rest are 429', async () => {
    const { email } = await register(host.url);
    const login = `${host.url}/api/auth/password/login`;
    const answers = await Promise.all(Array.from({ length: 12 }, () => postFrom('127.0.0.1', login, { email, password: 'wrong password guess' })));
    const verified = answers.filter((a) => a.code === 'invalid_credentials').length;
    const limited = answers.filter((a) => a.code === 'rate_limited');
    expect(verified).toBe(3);
    expect(limited).toHaveLength(9);
    for (const answer of limited) expect(answer).toMatchObject({ status: 429 });
    // Locked for this pair, even with the right password.
    expect(await postFrom('127.0.0.1', login, { email, password: PASSWORD })).toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('the lock is for the (email, address) pair: the owner at another address still signs in, a spoofed address header does not help', async () => {
    // The owner's browser signed in before (register signs in): it holds the device cookie.
    const { email, deviceCookie } = await register(host.url);
    const login = `${host.url}/api/auth/password/login`;
    for (let i = 0; i < 3; i++) expect((await postFrom('127.0.0.2', login, { email, password: 'wrong password guess' })).code).toBe('invalid_credentials');
    expect((await postFrom('127.0.0.2', login, { email, password: 'wrong password guess' })).code).toBe('rate_limited');
    // The attacker claims another address through the host's own header: dropped by the host.
    expect((await postFrom('127.0.0.2', login, { email, password: PASSWORD }, { 'x-app-client-address': '203.0.113.9' })).code).toBe('rate_limited');
    // The owner, elsewhere, in the browser that signed in before, is not locked out (without that
    // browser the account-wide delay applies: test/auth/account-budget.e2e.test.ts).
    expect((await postFrom('127.0.0.1', login, { email, password: PASSWORD }, { cookie: deviceCookie })).status).toBe(200);
  });
});

describe('per-client and global throttles', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({ env: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '4', AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE: '6' } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
  });

  it('one address gets 4 registrations a minute, all addresses together 6', async () => {
    const path = `${host.url}/api/auth/password/register`;
    const from = (address: string) => postFrom(address, path, { email: uniqueEmail(), password: PASSWORD });
    await inOneMinuteWindow(10_000);
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await from('127.0.0.3'));
    expect(first.slice(0, 4).map((a) => a.status < 300)).toEqual([true, true, true, true]);
    expect(first[4]).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(first[4]!.retryAfter)).toBeGreaterThan(0);
    // Another address has its own budget, until the global one (6) runs out.
    const second = [];
    for (let i = 0; i < 3; i++) second.push(await from('127.0.0.4'));
    expect(second.map((a) => a.status < 300)).toEqual([true, true, false]);
    expect(second[2]).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});
