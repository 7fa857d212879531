/**
 * authorizeSystemAdmin() against forged operator tokens (docs/security.md): another key, HS256
 * made with the configured public key as secret (RFC 8725 §3.1), `alg: none`, missing or
 * single-factor `amr`, expired, wrong issuer/audience. The end-to-end matrix against a real host
 * is test/auth/storage-status.e2e.test.ts.
 */
import { base64url, SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from '../config.ts';
import { testSigner } from '../oauth/jwt/test-keys.ts';
import type { AuthDeps } from './deps.ts';
import { authorizeSystemAdmin } from './system-token.ts';

const signer = await testSigner('ES256', 'op-1');
const JWKS = JSON.stringify({ keys: [signer.publicJwk] });
const NOW = 1_800_000_000;
const deps = { config: parseAuthConfig(new Map([['AUTH_SYSTEM_TOKEN_JWKS', JWKS]])), platform: { now: () => NOW * 1000 } } as unknown as AuthDeps;
const base = { iss: 'wasi-counter-auth', aud: 'wasi-counter-auth:storage-status', sub: 'op', iat: NOW - 10, exp: NOW + 300, amr: ['pwd', 'otp'], roles: ['system_admin'] };

const sign = (claims: JWTPayload = {}, key: CryptoKey = signer.privateKey) => new SignJWT({ ...base, ...claims }).setProtectedHeader({ alg: 'ES256', kid: 'op-1' }).sign(key);
const outcome = (token: string) =>
  authorizeSystemAdmin(deps, token).then(
    () => 'ok',
    (error: { code: string }) => error.code,
  );

describe('authorizeSystemAdmin()', () => {
  it('accepts an ES256 multi-factor system administrator token', async () => {
    expect(await outcome(await sign())).toBe('ok');
  });

  it('refuses a token signed by another key with the trusted kid', async () => {
    const other = await testSigner('ES256', 'op-1');
    expect(await outcome(await sign({}, other.privateKey))).toBe('unauthorized');
  });

  it('refuses HS256 made with the configured public key as HMAC secret (alg confusion)', async () => {
    for (const secret of [JWKS, JSON.stringify(signer.publicJwk)]) {
      const forged = await new SignJWT(base).setProtectedHeader({ alg: 'HS256', kid: 'op-1' }).sign(new TextEncoder().encode(secret));
      expect(await outcome(forged)).toBe('unauthorized');
    }
  });

  it('refuses alg none', async () => {
    const part = (value: object) => base64url.encode(JSON.stringify(value));
    expect(await outcome(`${part({ alg: 'none', kid: 'op-1' })}.${part(base)}.`)).toBe('unauthorized');
  });

  it('refuses expired, future, too old, wrong issuer, wrong audience, no subject', async () => {
    for (const claims of [{ exp: NOW - 31 }, { iat: NOW + 120 }, { iat: NOW - 25 * 3600 }, { iss: 'other' }, { aud: 'other-api' }, { sub: '' }, { nbf: NOW + 120 }]) {
      expect(await outcome(await sign(claims))).toBe('unauthorized');
    }
  });

  it('forbids a token without a second factor or without the role', async () => {
    for (const claims of [
      { amr: undefined },
      { amr: ['pwd'] },
      { amr: ['hwk'] },
      { amr: ['otp', 'sms'] },
      { amr: undefined, aal: 'aal2' },
      { amr: undefined, acr: '1' },
      { roles: ['support'] },
    ]) {
      expect(await outcome(await sign(claims))).toBe('forbidden');
    }
  });

  it('accepts mfa, two factor kinds, or an accepted acr', async () => {
    for (const claims of [{ amr: ['mfa'] }, { amr: ['hwk', 'pin'] }, { amr: ['face', 'swk'] }, { amr: undefined, acr: 'phrh' }]) {
      expect(await outcome(await sign(claims))).toBe('ok');
    }
  });

  it('refuses every token when no key is configured', async () => {
    const none = { ...deps, config: parseAuthConfig(new Map()) } as AuthDeps;
    expect(await authorizeSystemAdmin(none, await sign()).catch((e: { code: string }) => e.code)).toBe('unauthorized');
  });
});
