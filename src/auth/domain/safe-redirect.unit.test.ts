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


describe('safeNextPath(): the OAuth attack list', () => {
  it.each([['/dashboard'], ['/settings/profile'], ['/a?b=1&c=%2F#frag'], ['/path%20with%20space']])('keeps the same-site path %s', (path) => {
    expect(safeNextPath(path)).toBe(path);
  });

  it.each([
    [undefined], [null], [''], ['dashboard'], ['//evil.example'], ['///evil.example'], ['/\\evil.example'], ['\\\\evil.example'],
    ['https://evil.example/'], ['http:/evil.example'], ['javascript:alert(1)'], ['data:text/html,x'], ['/foo\\bar'],
    ['/%2Fevil.example'], ['/%2fevil.example'], ['%2F%2Fevil.example'], ['/%5Cevil.example'], ['/%252F%252Fevil.example'],
    ['/\tevil'], ['/\nnext'], ['/ok\r\nSet-Cookie:x'], ['/%0d%0aSet-Cookie:x'], ['/%E0%A4%A'], [' /dashboard'], ['/a b'],
    ['/\u2028x'], [`/${'a'.repeat(600)}`],
  ])('falls back to /dashboard for %j', (next) => {
    expect(safeNextPath(next as string)).toBe('/dashboard');
  });
});
