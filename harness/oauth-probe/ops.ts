/**
 * Signature operations a probe component runs in a loop to time them inside the guest. The pure
 * variant uses the service's own code (src/auth/oauth/jwt); the capability variant calls the WIT
 * `app:platform/signatures` import. Inputs are prepared by the caller (tokens, keys) and posted.
 */
export interface BenchInput {
  op: string;
  iterations: number;
  /** JWS compact token to verify */
  token?: string;
  /** public JWK (for verify) */
  jwk?: Record<string, unknown>;
  /** PKCS#8 PEM (for sign) */
  pem?: string;
}

export type Operation = (input: BenchInput) => () => unknown;

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** Runs the operation `iterations` times; returns ms per operation and the last result. */
export function timeOperation(ops: Record<string, Operation>, input: BenchInput): { firstMs: number; msPerOp: number; result: unknown } {
  const make = ops[input.op];
  if (!make) throw new Error(`unknown op ${input.op}`);
  const first = now();
  const run = make(input);
  let result = run(); // first call timed apart: parses keys, builds the curve, warms the code
  const firstMs = now() - first;
  const started = now();
  for (let i = 0; i < input.iterations; i++) result = run();
  return { firstMs, msPerOp: (now() - started) / input.iterations, result };
}

export function splitToken(token: string): { signingInput: Uint8Array; signature: string } {
  const [h, p, s] = token.split('.');
  return { signingInput: new TextEncoder().encode(`${h}.${p}`), signature: s ?? '' };
}
