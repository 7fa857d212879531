import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { OAuthError } from '../errors.ts';
import { cachedClientSecretJwt, signClientSecretJwt } from './client-secret-jwt.ts';
import { parseP256PrivateKey } from './p256-private-key.ts';
import { testSigner, type TestSigner } from './test-keys.ts';

const NOW = 1_800_000_000_000;
let signer: TestSigner;
const input = () => ({ teamId: 'TEAM123', keyId: 'KEY456', clientId: 'com.example.web', audience: 'https://provider-c.test', privateKey: signer.pkcs8 });

beforeAll(async () => {
  signer = await testSigner('ES256', 'KEY456');
});

describe('signClientSecretJwt()', () => {
  it('signs an ES256 JWT that jose (node:crypto) verifies with the matching public key', async () => {
    const { jwt, expiresAt } = signClientSecretJwt({ ...input(), now: NOW });
    const key = await importJWK(signer.publicJwk, 'ES256');
    const { payload, protectedHeader } = await jwtVerify(jwt, key, {
      issuer: 'TEAM123',
      subject: 'com.example.web',
      audience: 'https://provider-c.test',
      currentDate: new Date(NOW),
    });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'KEY456' });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(expiresAt).toBe(payload.exp);
  });

  it('accepts escaped PEM (one line with literal \\n, optionally quoted)', () => {
    const escaped = signer.pkcs8.replace(/\n/g, '\\n');
    expect(parseP256PrivateKey(escaped)).toEqual(parseP256PrivateKey(signer.pkcs8));
    expect(parseP256PrivateKey(`"${escaped}"`)).toEqual(parseP256PrivateKey(signer.pkcs8));
  });

  it('refuses a key that is not P-256 PEM with a fixed message and no key material', async () => {
    const rsa = await testSigner('RS256', 'r');
    for (const [pem, reason] of [
      ['not a key', 'pem'],
      [rsa.pkcs8, 'curve'],
      ['-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----', 'pem'],
    ] as const) {
      let error: unknown;
      try {
        signClientSecretJwt({ ...input(), privateKey: pem });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).code).toBe('signing_key_invalid');
      expect((error as OAuthError).reason).toBe(reason);
      expect((error as OAuthError).message).toBe('the client-secret signing key is not a usable P-256 private key');
    }
  });
});

describe('cachedClientSecretJwt()', () => {
  it('reuses the secret while it has more than the margin left and re-signs before expiry', () => {
    const source = cachedClientSecretJwt(input());
    const first = source.current(NOW);
    expect(source.current(NOW + 200_000)).toBe(first);
    const renewed = source.current(NOW + 241_000);
    expect(renewed).not.toBe(first);
    expect(decodeJwt(renewed).iat).toBe((NOW + 241_000) / 1000);
    expect(decodeProtectedHeader(renewed).kid).toBe('KEY456');
  });
});
