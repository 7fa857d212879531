import { describe, expect, it } from 'vitest';
import { hashArgon2id, verifyArgon2id } from './argon2id.ts';
import { hashPassword, UnrecognizedHash, verifyPassword } from './index.ts';
import { hashPassword as hashScrypt } from './scrypt.ts';

/** A toy cost keeps the suite fast; the format and checks are the same as production's. */
const FAST = { m: 64, t: 1, p: 1 };

describe('argon2id PHC strings', () => {
  it('hashes to a self-describing string with a fresh salt each time', async () => {
    const a = await hashArgon2id('correct horse battery', FAST);
    const b = await hashArgon2id('correct horse battery', FAST);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
  });

  it('verifies the right password only, with the parameters stored in the string', async () => {
    const encoded = await hashArgon2id('correct horse battery', { m: 128, t: 2, p: 2 });
    expect(await verifyArgon2id('correct horse battery', encoded)).toBe(true);
    expect(await verifyArgon2id('correct horse batterz', encoded)).toBe(false);
  });

  it('rejects hostile costs', async () => {
    await expect(verifyArgon2id('x', `$argon2id$v=19$m=9999999,t=1,p=1$${'A'.repeat(22)}$${'A'.repeat(43)}`)).rejects.toBeInstanceOf(UnrecognizedHash);
  });
});

/** Event-loop turns (setImmediate) that pass while `work` runs: 0 when it blocks the thread until it resolves. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  await work();
  running = false;
  return turns;
}

describe('host password hashing', () => {
  // The host's one thread serves every request; a KDF run on it would stall them all for its
  // ~50 ms. node:crypto's asynchronous argon2 runs in libuv's pool, so the loop keeps turning.
  it('never blocks the event loop: hash and verify at the production cost run off the thread', async () => {
    let encoded = '';
    expect(
      await turnsDuring(async () => {
        encoded = await hashPassword('a long enough password');
      }),
    ).toBeGreaterThan(0);
    expect(await turnsDuring(() => verifyPassword('a long enough password', encoded))).toBeGreaterThan(0);
  });

  it('hashes new passwords with Argon2id at the default cost', async () => {
    expect(await hashPassword('a long enough password')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('still verifies scrypt hashes stored before the switch', async () => {
    const old = await hashScrypt('an older password', { ln: 10, r: 8, p: 1 });
    expect(await verifyPassword('an older password', old)).toBe(true);
    expect(await verifyPassword('another password', old)).toBe(false);
  });
});
