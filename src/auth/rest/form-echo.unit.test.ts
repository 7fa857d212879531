import { describe, expect, it } from 'vitest';
import { clearedFormEchoCookie, formEchoCookie, formEchoFromCookieHeader } from './form-echo.ts';

describe('form echo cookie', () => {
  it('round-trips the typed email, scoped to /login, HttpOnly and short-lived', () => {
    const cookie = formEchoCookie('ada+x@example.com', true)!;
    expect(cookie).toMatch(/; Max-Age=60; Path=\/login; HttpOnly; SameSite=Lax; Secure$/);
    expect(formEchoFromCookieHeader(`other=1; ${cookie.split(';')[0]}`)).toBe('ada+x@example.com');
  });
  it('sets nothing for an empty email and clears with Max-Age=0', () => {
    expect(formEchoCookie('', false)).toBeUndefined();
    expect(clearedFormEchoCookie(false)).toContain('Max-Age=0; Path=/login');
  });
  it('ignores a malformed value', () => expect(formEchoFromCookieHeader('wasi_auth_form_email=%E0%A4%A')).toBeUndefined());
});
