/** Host-capability signature operations (WIT `app:platform/signatures`), timed inside the component. */
import { base64url } from 'jose';
import { signEs256, verify } from 'app:platform/signatures@0.1.0';
import { splitToken, type Operation } from '../../harness/oauth-probe/ops.ts';

function verifyOp(alg: 'rs256' | 'es256'): Operation {
  return ({ token, jwk }) => {
    const { signingInput, signature } = splitToken(token!);
    const sig = base64url.decode(signature);
    const jwkText = JSON.stringify(jwk);
    return () => verify(alg, jwkText, signingInput, sig);
  };
}

export const capabilityOps: Record<string, Operation> = {
  'rs256-verify': verifyOp('rs256'),
  'es256-verify': verifyOp('es256'),
  'es256-sign': ({ pem }) => {
    const data = new TextEncoder().encode('header.payload');
    return () => signEs256(pem!, data).length === 64;
  },
};
