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
    [undefined],
    [null],
    [''],
    ['dashboard'],
    ['//evil.example'],
    ['///evil.example'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['https://evil.example/'],
    ['http:/evil.example'],
    ['javascript:alert(1)'],
    ['data:text/html,x'],
    ['/foo\\bar'],
    ['/%2Fevil.example'],
    ['/%2fevil.example'],
    ['%2F%2Fevil.example'],
    ['/%5Cevil.example'],
    ['/%252F%252Fevil.example'],
    ['/\tevil'],
    ['/\nnext'],
    ['/ok\r\nSet-Cookie:x'],
    ['/%0d%0aSet-Cookie:x'],
    ['/%E0%A4%A'],
    [' /dashboard'],
    ['/a b'],
    ['/\u2028x'],
    [`/${'a'.repeat(600)}`],
  ])('falls back to /dashboard for %j', (next) => {
    expect(safeNextPath(next as string)).toBe('/dashboard');
  });
});

describe('safeNextPath(): dot segments and the final value (open redirect through `/.//host`)', () => {
  it.each([
    ['/.//evil.example/x'],
    ['/%2e//evil.example/x'],
    ['/%2E//evil.example/x'],
    ['/a/..//evil.example/x'],
    ['/a/%2e%2e//evil.example/x'],
    ['/..//evil.example'],
    ['/././/evil.example'],
    ['/a/b/../..//evil.example'],
    ['/.%2e//evil.example'],
    ['/a/.%2E//evil.example'],
    ['/.//%2Fevil.example'],
    ['/./\\evil.example'],
    ['/%2e/%2fevil.example'],
    ['/a/../%2F%2Fevil.example'],
    ['/.%09//evil.example'],
    ['/./\n/evil.example'],
    ['/.\r//evil.example'],
    ['/a/..\\/evil.example'],
  ])('falls back to /dashboard for %j', (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  // Encoded dots inside a longer segment are not dot segments (WHATWG URL): the path stays ours.
  it.each([['/%2e%2f/evil.example'], ['/%252e//evil.example'], ['/a%2e%2e//evil.example']])('%j stays a same-origin path', (next) => {
    const result = safeNextPath(next);
    expect(new URL(result, 'https://victim.example').origin).toBe('https://victim.example');
    expect(result.startsWith('//')).toBe(false);
  });

  it.each([
    ['/a/../b', '/b'],
    ['/./dashboard', '/dashboard'],
    ['/a/./b?x=1', '/a/b?x=1'],
  ])('normalises the harmless %j to %j', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
