import { base64url } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { OAuthError } from '../errors.ts';
import { signToken, testSigner, type TestSigner } from './test-keys.ts';
import { verifyIdToken, type VerifyIdTokenOptions } from './verify-id-token.ts';

const NOW = 1_800_000_000_000;
const now = NOW / 1000;
let rsa: TestSigner;
let ec: TestSigner;
let options: VerifyIdTokenOptions;

const claims = (extra: Record<string, unknown> = {}) => ({
  iss: 'https://issuer.test',
  aud: 'client-1',
  sub: 'user-1',
  nonce: 'n-1',
  iat: now - 10,
  exp: now + 300,
  email: 'a@b.test',
  ...extra,
});

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe('id_token_invalid');
    expect((error as OAuthError).message).toBe('the identity token from the provider is not valid');
    return (error as OAuthError).reason;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  rsa = await testSigner('RS256', 'rsa-1');
  ec = await testSigner('ES256', 'ec-1');
  options = {
    jwks: { keys: [rsa.publicJwk, ec.publicJwk] },
    issuer: 'https://issuer.test',
    audience: 'client-1',
    nonce: 'n-1',
    allowedAlgs: ['RS256', 'ES256'],
    now: NOW,
    clockToleranceSec: 30,
  };
});

describe('verifyIdToken()', () => {
  it('accepts an RS256 token signed by jose and returns its claims', async () => {
    const result = verifyIdToken(await signToken(rsa, claims()), options);
    expect(result).toMatchObject({ sub: 'user-1', email: 'a@b.test' });
  });

  it('accepts an ES256 token signed by node:crypto through jose (high-S signatures included)', async () => {
    // 20 signatures: with random k about half have s > n/2, which a low-S-only verifier would refuse.
    for (let i = 0; i < 20; i++) expect(verifyIdToken(await signToken(ec, claims({ i })), options).sub).toBe('user-1');
  });

  it('accepts aud as an array holding only the client id, with or without azp (OIDC Core §3.1.3.7 steps 3-5)', async () => {
    expect(verifyIdToken(await signToken(rsa, claims({ aud: ['client-1'] })), options).sub).toBe('user-1');
    expect(verifyIdToken(await signToken(rsa, claims({ aud: ['client-1'], azp: 'client-1' })), options).sub).toBe('user-1');
  });

  it('accepts a token without kid when exactly one key of its algorithm exists', async () => {
    const token = await signToken(ec, claims(), { kid: undefined });
    expect(verifyIdToken(token, options).sub).toBe('user-1');
  });

  it.each([
    ['wrong issuer', { iss: 'https://evil.test' }, 'issuer'],
    ['wrong audience', { aud: 'client-2' }, 'audience'],
    ['audience array without us', { aud: ['x', 'y'] }, 'audience'],
    ['azp of another client', { aud: ['client-1'], azp: 'x' }, 'authorized_party'],
    // OIDC Core §3.1.3.7: an extra, untrusted audience is refused, with or without azp
    ['an extra audience without azp', { aud: ['other', 'client-1'] }, 'audience'],
    ['an extra audience with azp = us', { aud: ['client-1', 'other'], azp: 'client-1' }, 'audience'],
    ['an empty audience array', { aud: [] }, 'audience'],
    ['no aud', { aud: undefined }, 'audience'],
    ['iat older than the bound (a replayed token, still unexpired)', { iat: now - 300 - 31, exp: now + 3600 }, 'issued_at'],
    ['expired', { exp: now - 31 }, 'expired'],
    ['no exp', { exp: undefined }, 'expired'],
    ['not yet valid', { nbf: now + 31 }, 'not_yet_valid'],
    ['iat in the future', { iat: now + 31 }, 'issued_at'],
    ['no iat', { iat: undefined }, 'issued_at'],
    ['wrong nonce', { nonce: 'n-2' }, 'nonce'],
    ['no nonce', { nonce: undefined }, 'nonce'],
    ['empty subject', { sub: '' }, 'subject'],
  ])('rejects %s', async (_name, extra, reason) => {
    const token = await signToken(rsa, claims(extra));
    expect(rejection(() => verifyIdToken(token, options))).toBe(reason);
  });

  it('tolerates clock skew within the tolerance', async () => {
    const token = await signToken(rsa, claims({ exp: now - 20, iat: now - 100, nbf: now + 20 }));
    expect(verifyIdToken(token, options).sub).toBe('user-1');
  });

  it('rejects alg none, whatever the case', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      const enc = (o: object) => base64url.encode(JSON.stringify(o));
      const token = `${enc({ alg })}.${enc(claims())}.`;
      expect(rejection(() => verifyIdToken(token, options))).toBe('alg_none');
    }
  });

  it('rejects an algorithm the provider is not allowed to use', async () => {
    const token = await signToken(ec, claims());
    expect(rejection(() => verifyIdToken(token, { ...options, allowedAlgs: ['RS256'] }))).toBe('alg_not_allowed');
  });

  it('rejects HS256 even when listed by mistake', async () => {
    const enc = (o: object) => base64url.encode(JSON.stringify(o));
    const token = `${enc({ alg: 'HS256' })}.${enc(claims())}.c2ln`;
    expect(rejection(() => verifyIdToken(token, { ...options, allowedAlgs: ['HS256' as 'RS256'] }))).toBe('alg_not_allowed');
  });

  it('rejects an unknown kid', async () => {
    const token = await signToken(rsa, claims(), { kid: 'rotated-away' });
    expect(rejection(() => verifyIdToken(token, options))).toBe('unknown_kid');
  });

  it('rejects a token signed by another key under a known kid', async () => {
    const impostor = await testSigner('RS256', 'rsa-1');
    expect(rejection(() => verifyIdToken('', options))).toBe('malformed');
    const token = await signToken(impostor, claims());
    expect(rejection(() => verifyIdToken(token, options))).toBe('bad_signature');
  });

  it('rejects a tampered payload and a tampered signature', async () => {
    for (const signer of [rsa, ec]) {
      const [h, p, s] = (await signToken(signer, claims())).split('.') as [string, string, string];
      const forged = base64url.encode(JSON.stringify(claims({ sub: 'admin' })));
      expect(rejection(() => verifyIdToken(`${h}.${forged}.${s}`, options))).toBe('bad_signature');
      const sig = base64url.decode(s);
      sig[5] = sig[5]! ^ 1;
      expect(rejection(() => verifyIdToken(`${h}.${p}.${base64url.encode(sig)}`, options))).toBe('bad_signature');
    }
  });

  it('rejects malformed and oversized tokens', async () => {
    for (const token of ['a.b', 'x.y.z', '..', 'a.b.c.d']) expect(rejection(() => verifyIdToken(token, options))).toBe('malformed');
    const huge = await signToken(rsa, claims({ padding: 'x'.repeat(17 * 1024) }));
    expect(rejection(() => verifyIdToken(huge, options))).toBe('malformed');
  });

  it('ignores JWKS entries it cannot use (encryption keys, other curves, garbage)', async () => {
    const jwks = { keys: [{ kty: 'RSA', use: 'enc', kid: 'rsa-1', n: 'AQAB', e: 'AQAB' }, { kty: 'EC', crv: 'P-384', kid: 'x' }, 42, rsa.publicJwk] };
    expect(verifyIdToken(await signToken(rsa, claims()), { ...options, jwks }).sub).toBe('user-1');
  });
});
