import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './email.ts';

describe('normalizeEmail()', () => {
  it('trims and lower-cases the whole address', () => {
    expect(normalizeEmail('  Alice.Smith+news@Example.COM ')).toBe('alice.smith+news@example.com');
  });

  it('keeps dots and tags: they are different mailboxes', () => {
    expect(normalizeEmail('a.b+c@example.com')).not.toBe(normalizeEmail('ab@example.com'));
  });

  it.each(['', 'plain', '@example.com', 'a@', 'a@b', 'a b@example.com', 'a@@example.com', 'a..b@example.com', `${'x'.repeat(65)}@example.com`, `a@${'x'.repeat(250)}.com`])(
    'rejects %j',
    (input) => {
      expect(() => normalizeEmail(input)).toThrow(expect.objectContaining({ code: 'validation', message: 'email must be a valid address' }));
    },
  );
});
