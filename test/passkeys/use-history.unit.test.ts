/**
 * A passkey's use history stops growing, on the memory platform (the unit tests' stores, held to
 * the storage contract): 200 sign-ins with a software authenticator, 2 s sessions, retention 1 s
 * and a maintenance pass (session retention) every second leave at most 40 events and read-model
 * documents more than before, 20 s later. Each sign-in appends `auth_passkey_used` to the
 * credential's stream against the revision it read (the counter check) and truncates the events
 * before it; the session it opened goes with retention. The counter check still refuses a cloned
 * authenticator, and the per-type totals still count every use.
 */
import { describe, expect, it } from 'vitest';
import { SoftwarePasskey } from '../support/software-passkey.ts';
import { createMemoryPlatform } from '../../src/platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../../src/auth/config.ts';
import { AUTH_COLLECTIONS, authEvent, getStorageStatus, registerWithPassword, runSessionRetention, type AuthDeps } from '../../src/auth/application/index.ts';
import { ENDED_SESSIONS } from '../../src/auth/application/retention.ts';
import { sha256Hex } from '../../src/auth/application/secrets.ts';
import { authenticationOptions, signInWithPasskey } from '../../src/auth/passkeys/authentication.ts';
import { appendToList, claimCredential, passkeyStreams } from '../../src/auth/passkeys/store.ts';
import { userHandleOf } from '../../src/auth/passkeys/user-handle.ts';
import { AppError } from '../../src/errors.ts';

const ORIGIN = 'http://localhost:8080';
const SIGN_INS = 200;
const MAX_ROWS_LEFT = 40;

function setup() {
  const platform = createMemoryPlatform();
  const env = { AUTH_PUBLIC_BASE_URL: ORIGIN, AUTH_SESSION_TTL_SECONDS: '2', AUTH_SESSION_RETENTION_SECONDS: '1', AUTH_LOGIN_MAX_FAILURES: '1000' };
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map(Object.entries(env))) };
  return { platform, deps };
}

/** A password account holding one passkey of `key`, stored as a registration stores it. */
async function accountWithPasskey(deps: AuthDeps, key: SoftwarePasskey): Promise<{ userId: string; passkeyId: string }> {
  const registration = await registerWithPassword(deps, { email: 'alice@example.com', password: 'correct horse battery' });
  if (!registration.created) throw new Error('not registered');
  const { userId } = registration;
  key.userHandle = userHandleOf(userId);
  const passkeyId = await sha256Hex(key.id);
  expect(claimCredential(deps, passkeyId, { user_id: userId, counter: 0 })).toBe(true);
  appendToList(
    deps,
    userId,
    authEvent('auth_passkey_registered', {
      user_id: userId,
      passkey_id: passkeyId,
      credential_id: key.id,
      public_key: key.publicKey,
      counter: 0,
      transports: [],
      name: 'Test key',
      backed_up: false,
      device_type: 'singleDevice',
      created_at: deps.platform.now(),
    }),
  );
  return { userId, passkeyId };
}

/** Events in the store and documents of the auth read models: what the store holds. */
function rows(deps: AuthDeps): number {
  const events = deps.platform.events.readAll(0n, 1000).length;
  const collections = [...Object.values(AUTH_COLLECTIONS), ENDED_SESSIONS];
  return events + collections.reduce((sum, c) => sum + deps.platform.projections.listDocuments(c, undefined, 1000).length, 0);
}

describe('passkey use history', () => {
  it(`${SIGN_INS} passkey sign-ins with 2 s sessions leave at most ${MAX_ROWS_LEFT} rows more 20 s later; the totals count them all`, async () => {
    const { platform, deps } = setup();
    const key = new SoftwarePasskey();
    const { passkeyId } = await accountWithPasskey(deps, key);
    platform.respond();
    platform.clock.advance(5_000);
    runSessionRetention(deps);
    const before = rows(deps);
    const usedBefore = getStorageStatus(deps).events['auth_passkey_used'] ?? 0;

    for (let i = 0; i < SIGN_INS; i++) {
      const options = await authenticationOptions(deps);
      await signInWithPasskey(deps, key.assert(options, { origin: ORIGIN }) as never, 'Test device');
      platform.respond();
      // Five sign-ins a second, with a maintenance pass each second.
      platform.clock.advance(200);
      if (i % 5 === 4) runSessionRetention(deps);
    }
    for (let s = 0; s < 20; s++) {
      platform.clock.advance(1_000);
      runSessionRetention(deps);
    }

    expect(rows(deps) - before, 'rows more than before').toBeLessThanOrEqual(MAX_ROWS_LEFT);
    const history = deps.platform.events.readStream(passkeyStreams.credential(passkeyId), { direction: 'forward', limit: 1000 });
    expect(history.map((e) => [e.eventType, e.revision])).toEqual([['auth_passkey_used', BigInt(SIGN_INS + 1)]]);
    expect(getStorageStatus(deps).events['auth_passkey_used']).toBe(usedBefore + SIGN_INS);
  });

  it('still refuses a cloned authenticator (a counter that did not move forward) after truncating', async () => {
    const { platform, deps } = setup();
    const key = new SoftwarePasskey();
    const { passkeyId } = await accountWithPasskey(deps, key);
    for (const counter of [5, 6, 7]) {
      await signInWithPasskey(deps, key.assert(await authenticationOptions(deps), { origin: ORIGIN, counter }) as never, 'Test device');
      platform.respond();
    }
    expect(deps.platform.events.readStream(passkeyStreams.credential(passkeyId), { direction: 'forward', limit: 10 }).map((e) => e.revision)).toEqual([4n]);
    const clone = signInWithPasskey(deps, key.assert(await authenticationOptions(deps), { origin: ORIGIN, counter: 7 }) as never, 'Clone');
    await expect(clone).rejects.toBeInstanceOf(AppError);
    await signInWithPasskey(deps, key.assert(await authenticationOptions(deps), { origin: ORIGIN, counter: 8 }) as never, 'Test device');
  });

  it('a failed truncation is logged and harmless: the sign-in succeeds and the next use truncates', async () => {
    const { platform, deps } = setup();
    const key = new SoftwarePasskey();
    const { passkeyId } = await accountWithPasskey(deps, key);
    platform.faults.failNext('truncateBefore');
    await signInWithPasskey(deps, key.assert(await authenticationOptions(deps), { origin: ORIGIN }) as never, 'Test device');
    const stream = passkeyStreams.credential(passkeyId);
    expect(deps.platform.events.readStream(stream, { direction: 'forward', limit: 10 })).toHaveLength(2);
    expect(platform.logger.withCode('auth_passkey_truncate_failed')).toHaveLength(1);
    await signInWithPasskey(deps, key.assert(await authenticationOptions(deps), { origin: ORIGIN }) as never, 'Test device');
    expect(deps.platform.events.readStream(stream, { direction: 'forward', limit: 10 }).map((e) => e.revision)).toEqual([3n]);
  });
});
