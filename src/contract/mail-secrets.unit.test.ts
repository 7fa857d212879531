import { describe, expect, it } from 'vitest';
import { checkMailSecrets, fillMailSecrets, type RequestedMailSecret } from './mail-secrets.ts';
import { sha256Hex } from './tokens.ts';

const slot = (placeholder: string, key = 'k'): RequestedMailSecret => ({ placeholder, namespace: 'ns', key, ttlMs: 60_000n });

describe('checkMailSecrets()', () => {
  it('keeps well-formed slots in their stored form', () => {
    expect(checkMailSecrets('a {secret-one} b', [slot('{secret-one}')])).toEqual([{ placeholder: '{secret-one}', namespace: 'ns', key: 'k', ttl_ms: 60_000 }]);
    expect(checkMailSecrets('no secret', [])).toEqual([]);
  });

  it('refuses a placeholder missing from the text, too short or long, inside another, and bad places or lifetimes', () => {
    expect(checkMailSecrets('text', [slot('{secret-one}')])).toMatch(/not in the text/);
    expect(checkMailSecrets('{s}', [slot('{s}')])).toMatch(/8 to 64 characters/);
    expect(checkMailSecrets('[{secret-one}]', [slot('{secret-one}'), slot('[{secret-one}]')])).toMatch(/distinct/);
    expect(checkMailSecrets('{secret-one}', [{ ...slot('{secret-one}'), key: '' }])).toMatch(/must not be empty/);
    expect(checkMailSecrets('{secret-one}', [{ ...slot('{secret-one}'), ttlMs: 0n }])).toMatch(/ttl-ms/);
    const five = ['{secret-1}', '{secret-2}', '{secret-3}', '{secret-4}', '{secret-5}'];
    expect(
      checkMailSecrets(
        five.join(' '),
        five.map((p) => slot(p)),
      ),
    ).toMatch(/at most 4/);
  });
});

describe('fillMailSecrets()', () => {
  it('puts a fresh 256-bit secret where each placeholder stands and stores only its hash', async () => {
    const stored = new Map<string, string>();
    const hashes = { set: (ns: string, key: string, value: string) => void stored.set(`${ns}/${key}`, value) };
    const slots = checkMailSecrets('a {secret-one} b {secret-one} c {secret-two}', [slot('{secret-one}', 'one'), slot('{secret-two}', 'two')]);
    if (typeof slots === 'string') throw new Error(slots);
    const text = await fillMailSecrets('a {secret-one} b {secret-one} c {secret-two}', slots, hashes);
    const [, one, again, two] = /^a (\S+) b (\S+) c (\S+)$/.exec(text)!;
    expect(one).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again).toBe(one);
    expect(two).not.toBe(one);
    expect(stored.get('ns/one')).toBe(await sha256Hex(one!));
    expect(stored.get('ns/two')).toBe(await sha256Hex(two!));
    expect(await fillMailSecrets('a {secret-one}', slots.slice(0, 1), hashes)).not.toBe(`a ${one}`);
  });
});
