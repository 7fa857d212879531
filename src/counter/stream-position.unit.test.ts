import { describe, expect, it } from 'vitest';
import type { AppError } from '../errors.ts';
import { parseStartPosition } from './stream-position.ts';

const refused = (header: string | undefined, query: string | undefined) => (parseStartPosition(header, query) as AppError).code;

describe('SSE start position', () => {
  it('starts at Last-Event-ID, else last_sequence, else 0', () => {
    expect(parseStartPosition('7', '3')).toBe(7);
    expect(parseStartPosition(undefined, '3')).toBe(3);
    expect(parseStartPosition(undefined, undefined)).toBe(0);
    expect(parseStartPosition(undefined, '999999999999999')).toBe(999_999_999_999_999);
  });

  it('refuses what the document refuses, also a query the header overrides', () => {
    expect(refused('0', '')).toBe('validation');
    expect(refused('0', 'x')).toBe('validation');
    expect(refused(undefined, '')).toBe('validation');
    expect(refused('', undefined)).toBe('validation');
    // 16 digits: beyond the pattern (and beyond a safe integer at the top of that range).
    expect(refused(undefined, '9999999999999999')).toBe('validation');
  });
});
