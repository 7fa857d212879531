import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, sessionCookie, sessionIdFromCookieHeader } from './session-cookie.ts';
import { randomToken } from './secrets.ts';

describe('session cookie', () => {
  it('carries the id with HttpOnly, SameSite=Lax, Path=/, and __Host- with Secure when secure', () => {
    expect(sessionCookie('abc', 60, true)).toBe('__Host-wasi_auth_dev_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Lax; Secure');
    expect(clearedSessionCookie(true)).toMatch(/^__Host-wasi_auth_dev_session=; Max-Age=0; .*; Secure$/);
    expect(sessionCookie('abc', 60, false)).toBe('wasi_auth_dev_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Lax');
    expect(clearedSessionCookie(false)).toMatch(/^wasi_auth_dev_session=; Max-Age=0; Expires=Thu, 01 Jan 1970/);
  });

  it('reads only a well-formed id from the Cookie header', () => {
    const id = randomToken(32);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessionIdFromCookieHeader(`other=1; wasi_auth_dev_session=${id}; x=y`, false)).toBe(id);
    expect(sessionIdFromCookieHeader('wasi_auth_dev_session=short', false)).toBeUndefined();
    expect(sessionIdFromCookieHeader(`xwasi_auth_dev_session=${id}`, false)).toBeUndefined();
    expect(sessionIdFromCookieHeader(undefined, false)).toBeUndefined();
    // secure mode reads only the __Host- name
    expect(sessionIdFromCookieHeader(`__Host-wasi_auth_dev_session=${id}`, true)).toBe(id);
    expect(sessionIdFromCookieHeader(`wasi_auth_dev_session=${id}`, true)).toBeUndefined();
  });
});
