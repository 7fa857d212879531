/** The account-wide budget and the device cookie, over the in-memory platform. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import { accountDelayMs } from './account-budget.ts';
import { changePassword, deleteAccount, deviceCookieFromHeader, findActiveSession, loginWithPassword, registerWithPassword, type AuthDeps } from './index.ts';

function setup() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = {
    platform,
    config: parseAuthConfig(
      new Map([
        ['AUTH_LOGIN_MAX_FAILURES', '5'],
        ['AUTH_LOGIN_LOCKOUT_SECONDS', '900'],
      ]),
    ),
  };
  return { platform, deps };
}
const owner = { email: 'owner@example.test', password: 'the owner knows this' };
const guess = { ...owner, password: 'wrong guess number x' };
const from = (n: number, deviceCookie?: string) => ({ client: `198.51.100.${n}`, device: 'test', deviceCookie });
/** `name=value` of a Set-Cookie. */
const cookieValue = (setCookie: string) => setCookie.split(';')[0]!.split('=')[1]!;

async function outcome(deps: AuthDeps, credentials: typeof owner, context: ReturnType<typeof from>): Promise<string> {
  try {
    await loginWithPassword(deps, credentials, context);
    return 'signed_in';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('the account-wide budget', () => {
  it('5 free verifications from anywhere, then one per growing delay (2 s, 4 s, 8 s), never a KDF when refused', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, owner);
    const kdf = () => platform.passwords.calls;
    const start = kdf();
    // Six addresses, five guesses each.
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) answers.push(await outcome(deps, guess, from(1 + (i % 6))));
    expect(answers.filter((a) => a === 'invalid_credentials')).toHaveLength(5);
    expect(kdf() - start).toBe(5);
    // The right password from a seventh address waits like any guess.
    await expect(loginWithPassword(deps, owner, from(7))).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 2 });
    platform.clock.advance(2_000);
    expect(await outcome(deps, guess, from(8))).toBe('invalid_credentials');
    await expect(loginWithPassword(deps, owner, from(7))).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 4 });
    platform.clock.advance(4_000);
    expect(await outcome(deps, guess, from(9))).toBe('invalid_credentials');
    await expect(loginWithPassword(deps, owner, from(7))).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 8 });
    expect(kdf() - start).toBe(7);
    // After the delay the owner is in (slowed down, never locked out).
    platform.clock.advance(8_000);
    await expect(loginWithPassword(deps, owner, from(7))).resolves.toMatchObject({ email: owner.email });
  });

  it('the delay doubles up to the window and no further; the window ends the budget', async () => {
    const { platform, deps } = setup();
    expect([4, 5, 6, 7, 13, 14, 15, 1000].map((attempts) => accountDelayMs(deps, attempts))).toEqual([0, 2_000, 4_000, 8_000, 512_000, 900_000, 900_000, 900_000]);
    await registerWithPassword(deps, owner);
    for (let i = 0; i < 5; i++) await outcome(deps, guess, from(i));
    await expect(loginWithPassword(deps, owner, from(99))).rejects.toMatchObject({ code: 'rate_limited' });
    platform.clock.advance(900_001);
    await expect(loginWithPassword(deps, owner, from(99))).resolves.toMatchObject({ email: owner.email });
  });

  it('a browser that signed in before keeps its way in: the device cookie skips the account budget', async () => {
    const { deps } = setup();
    await registerWithPassword(deps, owner);
    const first = await loginWithPassword(deps, owner, from(1));
    expect(first.deviceCookie).toMatch(/^wasi_auth_device=[\w-]{22}\.[\w-]{43}; Max-Age=15552000; Path=\/api\/auth\/password\/login; HttpOnly; SameSite=Strict$/);
    const device = cookieValue(first.deviceCookie!);
    for (let i = 0; i < 30; i++) await outcome(deps, guess, from(1 + (i % 6)));
    expect(await outcome(deps, owner, from(7))).toBe('rate_limited');
    const again = await loginWithPassword(deps, owner, from(7, device));
    // The same device id, signed again.
    expect(cookieValue(again.deviceCookie!)).toBe(device);
  });

  it('a device keeps a limit of its own, and a cookie forged, altered or of another account is no device', async () => {
    const { deps } = setup();
    await registerWithPassword(deps, owner);
    const other = { email: 'other@example.test', password: 'another owner knows' };
    await registerWithPassword(deps, other);
    const device = cookieValue((await loginWithPassword(deps, owner, from(1))).deviceCookie!);
    const otherDevice = cookieValue((await loginWithPassword(deps, other, from(2))).deviceCookie!);
    // Guessing with the device cookie: its own lock after five.
    for (let i = 0; i < 5; i++) expect(await outcome(deps, guess, from(3, device))).toBe('invalid_credentials');
    expect(await outcome(deps, owner, from(3, device))).toBe('rate_limited');
    // Exhaust the account budget from elsewhere; then none of these cookies helps.
    for (let i = 0; i < 30; i++) await outcome(deps, guess, from(10 + (i % 6)));
    const [id, mac] = device.split('.') as [string, string];
    const altered = `${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const cookie of [otherDevice, altered, `${'A'.repeat(22)}.${'A'.repeat(43)}`]) expect(await outcome(deps, owner, from(30, cookie))).toBe('rate_limited');
  });

  it('a burst of concurrent guesses gets the free verifications and no more', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, owner);
    const start = platform.passwords.calls;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(deps, guess, from(i % 6))));
    expect(answers.filter((a) => a === 'invalid_credentials')).toHaveLength(5);
    expect(platform.passwords.calls - start).toBe(5);
  });

  it('with Secure cookies the device cookie is __Secure- and Secure, and only that name is read back', async () => {
    const platform = createMemoryPlatform();
    const deps: AuthDeps = { platform, config: parseAuthConfig(new Map([['AUTH_PUBLIC_BASE_URL', 'https://auth.example.test']])) };
    await registerWithPassword(deps, owner);
    const { deviceCookie } = await loginWithPassword(deps, owner, from(1));
    expect(deviceCookie).toMatch(/^__Secure-wasi_auth_device=[\w-]{22}\.[\w-]{43}; Max-Age=15552000; Path=\/api\/auth\/password\/login; HttpOnly; SameSite=Strict; Secure$/);
    const value = cookieValue(deviceCookie!);
    expect(deviceCookieFromHeader(`a=b; __Secure-wasi_auth_device=${value}`, true)).toBe(value);
    expect(deviceCookieFromHeader(`wasi_auth_device=${value}`, true)).toBeUndefined();
  });
});

describe('password checks outside the login', () => {
  it('wrong passwords through the password change and account deletion count in the account’s budget', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, owner);
    const session = (await findActiveSession(deps, (await loginWithPassword(deps, owner, from(1))).session.sessionId))!;
    const kdf = () => platform.passwords.calls;
    const start = kdf();
    const answers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const client = `198.51.100.${10 + (i % 6)}`;
      const attempt =
        i % 2 === 0 ? changePassword(deps, session, `wrong guess ${i}`, 'a brand new passphrase', client) : deleteAccount(deps, session, { password: `wrong guess ${i}`, client });
      answers.push(
        await attempt.then(
          () => 'done',
          (error: { code: string }) => error.code,
        ),
      );
    }
    expect(answers.filter((a) => a === 'rate_limited').length).toBeGreaterThan(0);
    expect(answers).not.toContain('done');
    expect(kdf() - start).toBe(5);
    // The owner's password from a new address now waits too.
    expect(await outcome(deps, owner, from(99))).toBe('rate_limited');
  });
});
