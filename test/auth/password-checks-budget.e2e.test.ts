/**
 * Guessing the password through the account page with a stolen session (docs/security.md, "Every
 * password check counts"), against a real host and the built component: 60 wrong guesses from 6
 * loopback addresses (127.0.0.2–7), half as the current password of `POST
 * /api/auth/password/change`, half as the password of `DELETE /api/auth/account`. What must hold:
 * they count in the account's one budget like login guesses, so at most 10 reach the KDF (the
 * host's own metric of `password-hashing#verify` calls) and the right password at the login, from
 * a 7th address without the owner's browser, waits (429 + Retry-After). The account is still there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { cookieHeader, PASSWORD, postFrom, register, sendFrom, sessionOf } from './support.ts';

const VERIFY = { function: 'app:platform/password-hashing#verify' };
const ATTACKERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
const ROUNDS = 10;

describe('password checks outside the login against the account-wide budget', () => {
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

  it(`${ROUNDS * ATTACKERS.length} guesses through change and delete from 6 addresses: at most 10 verifications; a login from a 7th address waits`, async () => {
    const { email, sessionId } = await register(host.url);
    const stolen = cookieHeader(sessionId);
    const verifications = async () => (await scrape(metricsUrl)).count('host_wit_import_duration_seconds', VERIFY) ?? 0;
    const before = await verifications();

    const guess = (address: string, round: number, i: number) =>
      round % 2 === 0
        ? sendFrom(address, 'POST', `${host.url}/api/auth/password/change`, { current_password: `wrong guess ${round}-${i}`, new_password: 'a brand new passphrase' }, stolen)
        : sendFrom(address, 'DELETE', `${host.url}/api/auth/account`, { password: `wrong guess ${round}-${i}` }, stolen);
    const answers = [];
    for (let round = 0; round < ROUNDS; round++) answers.push(...(await Promise.all(ATTACKERS.map((address, i) => guess(address, round, i)))));
    expect(answers).toHaveLength(ROUNDS * ATTACKERS.length);
    // A guess that ran the KDF is told it was wrong; every other one was refused before it.
    const wrong = answers.filter((a) => a.code === 'invalid_credentials' || a.code === 'forbidden').length;
    const refused = answers.filter((a) => a.status === 429);
    expect(wrong + refused.length).toBe(answers.length);
    for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    const kdfRuns = (await verifications()) - before;
    expect(kdfRuns).toBe(wrong);
    expect(kdfRuns).toBeLessThanOrEqual(10);

    // The right password at the login, from a 7th address, without the owner's browser: it waits.
    const stranger = await postFrom('127.0.0.8', `${host.url}/api/auth/password/login`, { email, password: PASSWORD });
    expect(stranger).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(stranger.retryAfter)).toBeGreaterThan(0);
    // Nothing was changed or deleted: the session still signs the owner in.
    expect(await sessionOf(host.url, sessionId)).toMatchObject({ authenticated: true });
  });
});
