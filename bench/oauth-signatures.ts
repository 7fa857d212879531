/**
 * `npm run bench:oauth-signatures`: where should RS256/ES256 work for OAuth sign-in run?
 *   (a) pure JS in the guest (the service's src/auth/oauth/jwt code) on the Node host
 *   (b) the host capability `app:platform/signatures` (node:crypto) called from the guest
 *   (c) pure JS in the guest under `wasmtime serve` (a fresh instance per request)
 *   (d) the same pure-JS code natively on Node (V8 JIT), and (e) node:crypto natively: references
 * Times are measured inside the guest (performance.now) around a loop, so HTTP is excluded.
 * "first" is the first call on an instance (key parsing, curve tables, cold code).
 * Prints a table and writes docs/bench-oauth-signatures.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT } from 'jose';
import { requireTool } from '../test/support/tools.ts';
import { buildProbe } from '../test/oauth/probe/build-probe.ts';
import { timeOperation, type BenchInput } from '../test/oauth/probe/ops.ts';
import { pureOps } from '../test/oauth/probe/pure-ops.ts';
import { serveProbe } from '../test/oauth/probe/serve-probe.ts';
import { wasmtimeServe } from '../test/oauth/probe/wasmtime-serve.ts';
import { hostSignaturesImports } from './oauth-signatures/host-signatures.ts';

const root = join(import.meta.dirname, '..');
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
const fmt = (n: number) => (n < 1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(1));

console.log('building the probe components (skipped when unchanged)…');
const pure = await buildProbe('pure');
const capability = await buildProbe('capability');

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
const nativeOps = {
  'rs256-verify': (i: BenchInput) => {
    const [h, p, s] = i.token!.split('.');
    const d = new TextEncoder().encode(`${h}.${p}`);
    const sig = Buffer.from(s!, 'base64url');
    const j = JSON.stringify(i.jwk);
    return () => nativeHost.verify('rs256', j, d, sig);
  },
  'es256-verify': (i: BenchInput) => {
    const [h, p, s] = i.token!.split('.');
    const d = new TextEncoder().encode(`${h}.${p}`);
    const sig = Buffer.from(s!, 'base64url');
    const j = JSON.stringify(i.jwk);
    return () => nativeHost.verify('es256', j, d, sig);
  },
  'es256-sign': (i: BenchInput) => {
    const d = new TextEncoder().encode('header.payload');
    return () => nativeHost.signEs256(i.pem!, d);
  },
};
for (const input of cases) {
  const { firstMs, msPerOp } = timeOperation(nativeOps, { ...input, iterations: ITERATIONS.native });
  rows.push({ target: '(e) node:crypto natively (reference)', op: input.op, firstMs, msPerOp });
}

const table = [
  '| target | operation | first call ms | ms per op |',
  '|---|---|---:|---:|',
  ...rows.map((r) => `| ${r.target} | ${r.op} | ${fmt(r.firstMs)} | ${fmt(r.msPerOp)} |`),
].join('\n');
console.log(`\n${table}\n`);
mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(
  join(root, 'docs', 'bench-oauth-signatures.md'),
  `# OAuth signature benchmark\n\n\`npm run bench:oauth-signatures\`, ${new Date().toISOString()}, RSA 2048 / P-256, ${ITERATIONS.guest} iterations in the guest, ${ITERATIONS.native} natively, 2-core machine shared with other work.\n\n${table}\n`,
);
