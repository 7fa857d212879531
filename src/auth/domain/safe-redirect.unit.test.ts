import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_SIGN_IN, safeNextPath } from './safe-redirect.ts';

describe('safeNextPath()', () => {
  it.each(['/dashboard', '/counter?x=1', '/a/b#frag'])('keeps the same-site path %j', (path) => {
    expect(safeNextPath(path)).toBe(path);
  });

  it.each([
    undefined,
    null,
    '',
    'dashboard',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%252F%252Fevil.example',
    '/\tevil',
    '/%0d%0aSet-Cookie:x',
  ])('falls back to /dashboard for %j', (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });
});
