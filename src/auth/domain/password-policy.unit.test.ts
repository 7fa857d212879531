import { describe, expect, it } from 'vitest';
import { checkPassword, PASSWORD_MAX_LENGTH } from './password-policy.ts';

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
});
