import { describe, expect, it } from 'vitest';
import { signInWords } from './sign-in-words.ts';

describe('signInWords()', () => {
  it.each([
    ['password', 'aal1', 'Password'],
    ['oauth:provider_a', 'aal1', 'Company Login'],
    ['password', 'aal2', 'Passkey (two factors)'],
    ['passkey', 'aal1', 'Passkey'],
    ['something_new', 'aal1', 'Another way'],
  ] as const)('%s at %s → %s', (method, aal, words) => expect(signInWords(method, aal, (id) => (id === 'provider_a' ? 'Company Login' : id))).toBe(words));
});
