/** Guest view of the WIT interface `app:platform/signatures` (bench/oauth-signatures/signatures.wit). */
declare module 'app:platform/signatures@0.1.0' {
  export type Algorithm = 'rs256' | 'es256';
  export function verify(alg: Algorithm, publicJwk: string, signingInput: Uint8Array, signature: Uint8Array): boolean;
  export function signEs256(privateKeyPem: string, signingInput: Uint8Array): Uint8Array;
}
