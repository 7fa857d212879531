/**
 * `npm run bench -- oauth-signatures`: where should RS256/ES256 work for OAuth sign-in run?
 *   (a) pure JS in the guest (the service's src/auth/oauth/jwt code) on the Node host
 *   (b) the host capability `app:platform/signatures` (node:crypto) called from the guest
 *   (c) pure JS in the guest under `wasmtime serve` (a fresh instance per request)
 *   (d) the same pure-JS code natively on Node (V8 JIT), and (e) node:crypto natively: references
 * Times are measured inside the guest (performance.now) around a loop, so HTTP is excluded.
 * "first" is the first call on an instance (key parsing, curve tables, cold code).
 * Prints a table (`--out <file.md>`: also keeps it, see docs/runs/).
 */
import { parseArgs } from 'node:util';
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT } from 'jose';
import { requireTool } from '../harness/tools.ts';
import { buildProbe } from '../harness/oauth-probe/build-probe.ts';
import { timeOperation, type BenchInput } from '../harness/oauth-probe/ops.ts';
import { pureOps } from '../harness/oauth-probe/pure-ops.ts';
import { serveProbe } from './oauth-signatures/serve-probe.ts';
import { wasmtimeServe } from '../harness/wasmtime-serve.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';
import { hostSignaturesImports } from './oauth-signatures/host-signatures.ts';
import { CAPABILITY_PROBE } from './oauth-signatures/capability-probe.ts';

const { values } = parseArgs({ options: OUT_OPTION });
const ITERATIONS = { native: 200, guest: 20 };

async function inputs(): Promise<BenchInput[]> {
  const out: BenchInput[] = [];
  for (const alg of ['RS256', 'ES256'] as const) {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k' };
    const token = await new SignJWT({ sub: 'user', iss: 'https://issuer.test', aud: 'client' }).setProtectedHeader({ alg, kid: 'k' }).sign(privateKey);
    out.push({ op: `${alg.toLowerCase()}-verify`, iterations: 0, token, jwk });
    if (alg === 'ES256') out.push({ op: 'es256-sign', iterations: 0, pem: await exportPKCS8(privateKey) });
  }
  return out;
}

type Row = { target: string; op: string; firstMs: number; msPerOp: number };

async function overHttp(url: string, input: BenchInput): Promise<{ firstMs: number; msPerOp: number }> {
  const response = await fetch(`${url}/bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...input, iterations: ITERATIONS.guest }),
  });
  if (!response.ok) throw new Error(`probe answered ${response.status}`);
  return (await response.json()) as { firstMs: number; msPerOp: number };
}

const rows: Row[] = [];
const cases = await inputs();
/** Milliseconds with three significant-ish digits: sub-millisecond operations matter here. */
const ms = (n: number) => n.toFixed(n < 1 ? 3 : n < 10 ? 2 : 1);

console.log('building the probe components (skipped when unchanged)…');
const pure = await buildProbe();
const capability = await buildProbe(CAPABILITY_PROBE);

for (const [target, dir, extra] of [
  ['(a) pure JS in the guest, Node host', pure.transpiled, {}],
  ['(b) host capability (node:crypto) via WIT', capability.transpiled, hostSignaturesImports],
] as const) {
  const served = await serveProbe(dir, extra);
  try {
    for (const input of cases) rows.push({ target, op: input.op, ...(await overHttp(served.url, input)) });
  } finally {
    await served.stop();
  }
}

const wasmtime = requireTool('wasmtime');
if (wasmtime) {
  const served = await wasmtimeServe(wasmtime.path, pure.wasm);
  try {
    for (const input of cases) rows.push({ target: '(c) pure JS in the guest, wasmtime serve', op: input.op, ...(await overHttp(served.url, input)) });
  } finally {
    await served.stop();
  }
}

for (const input of cases) {
  const { firstMs, msPerOp } = timeOperation(pureOps, { ...input, iterations: ITERATIONS.native });
  rows.push({ target: '(d) same pure JS natively on Node (V8)', op: input.op, firstMs, msPerOp });
}
const nativeHost = hostSignaturesImports['app:platform/signatures'];
/** Verifies the input's token natively with `alg`: the signing input and signature split once, outside the timed call. */
const nativeVerify = (alg: 'rs256' | 'es256') => (i: BenchInput) => {
  const [h, p, s] = i.token!.split('.');
  const d = new TextEncoder().encode(`${h}.${p}`);
  const sig = Buffer.from(s!, 'base64url');
  const j = JSON.stringify(i.jwk);
  return () => nativeHost.verify(alg, j, d, sig);
};
const nativeOps = {
  'rs256-verify': nativeVerify('rs256'),
  'es256-verify': nativeVerify('es256'),
  'es256-sign': (i: BenchInput) => {
    const d = new TextEncoder().encode('header.payload');
    return () => nativeHost.signEs256(i.pem!, d);
  },
};
for (const input of cases) {
  const { firstMs, msPerOp } = timeOperation(nativeOps, { ...input, iterations: ITERATIONS.native });
  rows.push({ target: '(e) node:crypto natively (reference)', op: input.op, firstMs, msPerOp });
}

const table = markdownTable(
  ['target', 'operation', 'first call ms', 'ms per op'],
  rows.map((r) => [r.target, r.op, ms(r.firstMs), ms(r.msPerOp)]),
  ['l', 'l', 'r', 'r'],
);
publish(
  'OAuth signature benchmark (npm run bench -- oauth-signatures)',
  `RSA 2048 / P-256, ${ITERATIONS.guest} iterations in the guest, ${ITERATIONS.native} natively, 2-core machine shared with other work.\n\n${table}\n`,
  values.out,
);
