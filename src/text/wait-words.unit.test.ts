import { describe, expect, it } from 'vitest';
import { tryAgainWords } from './wait-words.ts';

describe('tryAgainWords()', () => {
  const now = 1_000_000_000_000;
  it('names the wait, rounded up', () => {
    expect(tryAgainWords(now / 1000 + 90, now)).toBe('Try again in 2 minutes.');
    expect(tryAgainWords(now / 1000 + 60, now)).toBe('Try again in 1 minute.');
    expect(tryAgainWords(now / 1000 + 30, now)).toBe('Try again in 30 seconds.');
    expect(tryAgainWords(now / 1000 + 3601, now)).toBe('Try again in 2 hours.');
  });
  it('says when the wait is over', () => expect(tryAgainWords(now / 1000 - 5, now)).toBe('You can try again now.'));
});
