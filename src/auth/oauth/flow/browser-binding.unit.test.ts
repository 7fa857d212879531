import { describe, expect, it } from 'vitest';
import { bindingCookieName, bindingFromCookie, bindingHash, bindingSetCookie, flowSecrets, newBindingValue } from './browser-binding.ts';

describe('browser binding', () => {
  it('https: a __Host- cookie that survives a cross-site form_post (SameSite=None; Secure)', () => {
    expect(bindingCookieName(true)).toBe('__Host-wasi_oauth_binding');
    expect(bindingSetCookie('v'.repeat(43), true)).toBe(`__Host-wasi_oauth_binding=${'v'.repeat(43)}; Max-Age=600; Path=/; HttpOnly; SameSite=None; Secure`);
  });

  it('local http: SameSite=Lax (browsers drop SameSite=None without Secure)', () => {
    expect(bindingSetCookie('v'.repeat(43), false)).toBe(`wasi_oauth_binding=${'v'.repeat(43)}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax`);
  });

  it('keeps a well-formed current value, makes a fresh one otherwise, ignores malformed cookies', () => {
    const fresh = newBindingValue(undefined);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newBindingValue(fresh)).toBe(fresh);
    expect(bindingFromCookie(fresh)).toBe(fresh);
    for (const bad of [undefined, '', 'short', `${fresh};x`, `${fresh}A`]) expect(bindingFromCookie(bad)).toBeUndefined();
    expect(bindingHash(fresh)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('derives nonce and PKCE verifier per binding and state: 43 unreserved characters, all distinct', () => {
    const a = newBindingValue(undefined);
    const b = newBindingValue(undefined);
    const one = flowSecrets(a, 'state-1');
    expect(flowSecrets(a, 'state-1')).toEqual(one);
    const values = [one.nonce, one.codeVerifier, flowSecrets(a, 'state-2').nonce, flowSecrets(b, 'state-1').nonce, flowSecrets(b, 'state-1').codeVerifier];
    expect(new Set(values).size).toBe(values.length);
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
