/** Pure-JS signature operations (the service's own code), timed inside the component. */
import { base64url } from 'jose';
import { signEs256, verifyEs256 } from '../../src/auth/oauth/jwt/ecdsa-p256.ts';
import { verificationKeys } from '../../src/auth/oauth/jwt/jwks.ts';
import { parseP256PrivateKey } from '../../src/auth/oauth/jwt/p256-private-key.ts';
import { verifyRs256 } from '../../src/auth/oauth/jwt/rsa-pkcs1-verify.ts';
import { splitToken, type Operation } from './ops.ts';

function keyOf(jwk: unknown) {
  const [key] = verificationKeys({ keys: [jwk] });
  if (!key) throw new Error('unusable key');
  return key;
}

export const pureOps: Record<string, Operation> = {
  'rs256-verify': ({ token, jwk }) => {
    const key = keyOf(jwk);
    const { signingInput, signature } = splitToken(token!);
    const sig = base64url.decode(signature);
    return () => key.alg === 'RS256' && verifyRs256(key.rsa, signingInput, sig);
  },
  'es256-verify': ({ token, jwk }) => {
    const key = keyOf(jwk);
    const { signingInput, signature } = splitToken(token!);
    const sig = base64url.decode(signature);
    return () => key.alg === 'ES256' && verifyEs256(key.ecPoint, signingInput, sig);
  },
  'es256-sign': ({ pem }) => {
    const secret = parseP256PrivateKey(pem!);
    const data = new TextEncoder().encode('header.payload');
    return () => signEs256(secret, data).length === 64;
  },
};
