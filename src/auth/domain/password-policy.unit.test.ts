import { describe, expect, it } from 'vitest';
import { checkPassword, PASSWORD_MAX_INPUT_UNITS, PASSWORD_MAX_LENGTH, passwordForHashing, UNSUPPORTED_CHARACTER_MESSAGE } from './password-policy.ts';

describe('checkPassword()', () => {
  it('accepts a password of exactly the minimum length, any characters', () => {
    expect(() => checkPassword('ab cd ef gh!', 12)).not.toThrow();
  });

  it('rejects a shorter one, naming the minimum', () => {
    expect(() => checkPassword('short', 12)).toThrow(expect.objectContaining({ code: 'validation', message: 'password must be at least 12 characters' }));
  });

  it('counts code points, not UTF-16 units', () => {
    expect(() => checkPassword('🔑'.repeat(11), 12)).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(() => checkPassword('🔑'.repeat(12), 12)).not.toThrow();
  });

  it('bounds the length so one request cannot ask the KDF for unbounded work', () => {
    expect(() => checkPassword('x'.repeat(PASSWORD_MAX_LENGTH + 1), 12)).toThrow(expect.objectContaining({ code: 'validation' }));
  });

  it('answers the NFKC form to hash: é composed or decomposed and full-width letters alike', () => {
    expect(checkPassword('caf\u00e9 ｐａｓｓｗｏｒｄ', 12)).toBe('caf\u00e9 password');
    expect(checkPassword('cafe\u0301 password', 12)).toBe('caf\u00e9 password');
  });

  it('counts the code points of the NFKC form', () => {
    // U+FDFA is one code point typed, 18 once normalized; 'e' + U+0301 is two typed, one normalized.
    expect(checkPassword('\ufdfa', 12)).toHaveLength(18);
    expect(() => checkPassword('e\u0301'.repeat(11), 12)).toThrow(expect.objectContaining({ code: 'validation', message: 'password must be at least 12 characters' }));
    expect(() => checkPassword('e\u0301'.repeat(PASSWORD_MAX_LENGTH), 12)).not.toThrow();
  });

  it('refuses input too long to be within the maximum once normalized, before normalizing it', () => {
    expect(() => checkPassword('\u00e9'.repeat(PASSWORD_MAX_INPUT_UNITS + 1), 12)).toThrow(
      expect.objectContaining({ code: 'validation', message: `password must be at most ${PASSWORD_MAX_LENGTH} characters` }),
    );
  });

  it('refuses a character the bundled tables cannot normalize as ICU does, naming the Unicode version', () => {
    for (const password of ['unassigned \u0378 here', 'NKo dantayalan \u07fd (Unicode 11.0)']) {
      expect(() => checkPassword(password, 12)).toThrow(expect.objectContaining({ code: 'validation', message: UNSUPPORTED_CHARACTER_MESSAGE }));
      expect(() => passwordForHashing(password)).toThrow(expect.objectContaining({ code: 'validation' }));
    }
    expect(UNSUPPORTED_CHARACTER_MESSAGE).toContain('Unicode 17.0');
  });

  it("accepts emoji and CJK added after the tables' Unicode 8.0", () => {
    expect(checkPassword('🥰🫠 𰀀 and twelve', 12)).toBe('🥰🫠 𰀀 and twelve');
  });
});
