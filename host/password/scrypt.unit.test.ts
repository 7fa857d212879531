import { describe, expect, it } from 'vitest';
import { hashPassword, UnrecognizedHash, verifyPassword } from './scrypt.ts';

/** A toy cost keeps the suite fast; the format and checks are the same as production's. */
const FAST = { ln: 10, r: 8, p: 1 };

describe('scrypt PHC strings', () => {
  it('hashes to a self-describing string with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery', FAST);
    const b = await hashPassword('correct horse battery', FAST);
    expect(a).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
  });

  it('verifies the right password only', async () => {
    const encoded = await hashPassword('correct horse battery', FAST);
    expect(await verifyPassword('correct horse battery', encoded)).toBe(true);
    expect(await verifyPassword('correct horse batterz', encoded)).toBe(false);
  });

  it('uses the parameters stored in the string, so costs can change over time', async () => {
    const encoded = await hashPassword('pw-with-other-cost', { ln: 11, r: 4, p: 2 });
    expect(await verifyPassword('pw-with-other-cost', encoded)).toBe(true);
  });

  it('treats NFKC-equivalent passwords as equal', async () => {
    const encoded = await hashPassword('ﬁsh and chips!', FAST);
    expect(await verifyPassword('fish and chips!', encoded)).toBe(true);
  });

  it('rejects strings it does not understand and hostile costs', async () => {
    await expect(verifyPassword('x', 'plain-text')).rejects.toBeInstanceOf(UnrecognizedHash);
    await expect(verifyPassword('x', `$scrypt$ln=30,r=8,p=1$${'A'.repeat(22)}$${'A'.repeat(43)}`)).rejects.toBeInstanceOf(UnrecognizedHash);
  });
});
