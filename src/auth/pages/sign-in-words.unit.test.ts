import { describe, expect, it } from 'vitest';
import { signInWords } from './sign-in-words.ts';

describe('signInWords()', () => {
  it.each([
    ['password', 'aal1', 'Password'],
    ['oauth:provider_a', 'aal1', 'Provider sign-in (provider_a)'],
    ['password', 'aal2', 'Passkey (two factors)'],
    ['something_new', 'aal1', 'something_new'],
  ] as const)('%s at %s → %s', (method, aal, words) => expect(signInWords(method, aal)).toBe(words));
});
