/**
 * Guessing one account's password from many addresses (docs/security.md), against a real host
 * and the built component: 30 wrong guesses from 6 loopback addresses (127.0.0.2–7; the host
 * reports each socket's peer to the guest). What must hold: at most 10 of them reach the KDF
 * (counted by the host's own metric of `password-hashing#verify` calls), the right password from
 * a 7th address without the owner's browser waits (429 + Retry-After), and the owner, from the
 * browser that signed in before (its device cookie), still signs in during the attack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { PASSWORD, deviceCookieFrom, postFrom, register } from './support.ts';

const VERIFY = { function: 'app:platform/password-hashing#verify' };
const ATTACKERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];

describe('the account-wide budget against guesses from many addresses', () => {
  let host: HostProcess;
  let metricsUrl: string;
  beforeAll(async () => {
    const metricsPort = await freePort();
    // The defaults: 5 failures per window (900 s), per pair and free per account.
    host = await startHost({ args: ['--metrics-port', String(metricsPort)], env: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
  });

  it('30 wrong guesses from 6 addresses: at most 10 verifications; a 7th address waits; the owner’s browser signs in', async () => {
    // The owner signed in once from this browser (register signs in): it holds the device cookie.
    const { email, deviceCookie } = await register(host.url);
    const login = `${host.url}/api/auth/password/login`;
    const verifications = async () => (await scrape(metricsUrl)).count('host_wit_import_duration_seconds', VERIFY) ?? 0;
    const before = await verifications();

    // Five rounds, each a guess from every attacker address at once.
    const answers = [];
    for (let round = 0; round < 5; round++) {
      answers.push(...(await Promise.all(ATTACKERS.map((address, i) => postFrom(address, login, { email, password: `wrong guess ${round}-${i}` })))));
    }
    expect(answers).toHaveLength(30);
    const verified = answers.filter((a) => a.code === 'invalid_credentials').length;
    const refused = answers.filter((a) => a.status === 429);
    expect(verified + refused.length).toBe(30);
    for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    const kdfRuns = (await verifications()) - before;
    expect(kdfRuns).toBe(verified);
    expect(kdfRuns).toBeLessThanOrEqual(10);

    // The right password from a 7th address, without the owner's browser: it waits too.
    const stranger = await postFrom('127.0.0.8', login, { email, password: PASSWORD });
    expect(stranger).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(stranger.retryAfter)).toBeGreaterThan(0);

    // The owner's browser, even from that 7th address, signs in at once, and keeps its device.
    expect(deviceCookie).toMatch(/^wasi_auth_device=[\w-]{22}\.[\w-]{43}$/);
    const owner = await postFrom('127.0.0.8', login, { email, password: PASSWORD }, { cookie: deviceCookie });
    expect(owner.status).toBe(200);
    expect(deviceCookieFrom(owner.setCookies)).toBe(deviceCookie);
    const attributes = owner.setCookies.find((c) => c.startsWith('wasi_auth_device='))!;
    expect(attributes).toMatch(/; Path=\/api\/auth\/password\/login; HttpOnly; SameSite=Strict$/);
  });
});
