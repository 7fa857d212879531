/**
 * `npm run bench -- password`: where should password hashing run? Compares, in one run, the same
 * KDFs natively in Node (node:crypto, and @noble/hashes in Node's JIT) and inside a component
 * built by componentize-js (the interpreter the service's guest code runs in). Guest costs are
 * measured at a low cost parameter and scaled linearly (scrypt and PBKDF2 are linear in N and in
 * iterations) to the production parameters. Then the end-to-end cost: password logins over
 * HTTP against the real host and component (sequential, median and p90). Prints tables.
 *
 * Last, the Node host's native Argon2id beside the composed password component under
 * `wasmtime serve` (bench/password/wasmtime.ts).
 *
 *   npm run bench -- password [--skip-guest] [--only-runtimes] [--out docs/runs/<date>-password.md]
 */
import { argon2, pbkdf2 as nodePbkdf2, scrypt as nodeScrypt, type ScryptOptions } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import { build } from 'esbuild';
import { componentize } from '@bytecodealliance/componentize-js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { scrypt } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { DEFAULT_SCRYPT_PARAMS } from '../host/password/scrypt.ts';
import { DEFAULT_ARGON2_PARAMS } from '../host/password/argon2id.ts';
import { hashPassword, verifyPassword } from '../host/password/index.ts';
import { startHost } from '../harness/host-process.ts';
import { requireTool } from '../harness/tools.ts';
import { ascending, median, percentile } from './lib/stats.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';
import { passwordRuntimeTable } from './password/wasmtime.ts';

const { values: flags } = parseArgs({
  options: { 'skip-guest': { type: 'boolean', default: false }, 'only-runtimes': { type: 'boolean', default: false }, logins: { type: 'string', default: '15' }, ...OUT_OPTION },
});

const root = join(import.meta.dirname, '..');
const out = join(root, 'build', 'bench-kdf');
const salt = new Uint8Array(16).fill(7);
const PASSWORD = 'correct horse battery staple';
const PBKDF2_ITERATIONS = 600_000; // OWASP 2023 for PBKDF2-HMAC-SHA256

async function timeMs(fn: () => unknown | Promise<unknown>, runs = 3): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function buildGuest(): Promise<(algorithm: string, cost: number) => number> {
  mkdirSync(out, { recursive: true });
  const bundle = join(out, 'guest.js');
  await build({
    entryPoints: [join(import.meta.dirname, 'password', 'kdf-guest', 'guest.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: bundle,
    logLevel: 'warning',
  });
  const { component } = await componentize({ sourcePath: bundle, witPath: join(import.meta.dirname, 'password', 'kdf-guest', 'kdf.wit'), worldName: 'kdf' });
  writeFileSync(join(out, 'kdf.wasm'), component);
  execFileSync(join(root, 'node_modules', '.bin', 'jco'), ['transpile', join(out, 'kdf.wasm'), '-o', join(out, 'transpiled'), '--name', 'kdf', '--quiet', '--no-typescript'], {
    stdio: 'inherit',
  });
  const mod = (await import(join(out, 'transpiled', 'kdf.js'))) as { run: (a: string, c: number) => number };
  return mod.run;
}

const { ln, r, p } = DEFAULT_SCRYPT_PARAMS;
const scale = (2 ** ln * r * p) / (2 ** 10 * 8 * 1); // guest measured at N=2^10, r=8, p=1
const rows: Array<[string, string, number, string]> = [];

/** The report's sections, printed (and kept with --out) at the end. */
const sections: string[] = [];
if (flags['only-runtimes']) {
  await runtimes();
  publish('Password hashing benchmark (npm run bench -- password)', sections.join('\n\n'), flags.out);
  process.exit(0);
}

if (!flags['skip-guest']) {
  console.log('building the KDF guest component (componentize-js)…');
  const guestRun = await buildGuest();
  guestRun('scrypt', 4); // warm up
  const guestScrypt = await timeMs(() => guestRun('scrypt', 10), 3);
  rows.push(['guest (componentize-js)', 'scrypt N=2^10 r=8 p=1 (measured)', guestScrypt, '']);
  rows.push(['guest (componentize-js)', `scrypt ln=${ln} r=${r} p=${p} (scaled ×${scale})`, guestScrypt * scale, 'extrapolated']);
  const guestPbkdf2 = await timeMs(() => guestRun('pbkdf2', 2000), 3);
  rows.push(['guest (componentize-js)', 'PBKDF2-SHA256 2000 it (measured)', guestPbkdf2, '']);
  rows.push(['guest (componentize-js)', `PBKDF2-SHA256 ${PBKDF2_ITERATIONS} it (scaled)`, (guestPbkdf2 * PBKDF2_ITERATIONS) / 2000, 'extrapolated']);
}

rows.push(['Node, @noble/hashes (JIT)', `scrypt ln=${ln} r=${r} p=${p}`, await timeMs(() => scrypt(PASSWORD, salt, { N: 2 ** ln, r, p, dkLen: 32, maxmem: 2 ** 30 })), '']);
rows.push(['Node, @noble/hashes (JIT)', `PBKDF2-SHA256 ${PBKDF2_ITERATIONS} it`, await timeMs(() => pbkdf2(sha256, PASSWORD, salt, { c: PBKDF2_ITERATIONS, dkLen: 32 })), '']);
const scryptAsync = (key: string, saltBytes: Uint8Array, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => nodeScrypt(key, saltBytes, length, options, (error, derived) => (error ? reject(error) : resolve(derived))));
rows.push([
  'Node, node:crypto (host)',
  `scrypt ln=${ln} r=${r} p=${p}`,
  await timeMs(() => scryptAsync(PASSWORD, salt, 32, { N: 2 ** ln, r, p, maxmem: 2 ** 30 })),
  'earlier default (still verifies)',
]);
const { m, t, p: lanes } = DEFAULT_ARGON2_PARAMS;
const argon2Async = () =>
  new Promise<Buffer>((resolve, reject) =>
    argon2('argon2id', { message: PASSWORD, nonce: salt, memory: m, passes: t, parallelism: lanes, tagLength: 32 }, (error, derived) => (error ? reject(error) : resolve(derived))),
  );
rows.push(['Node, node:crypto (host)', `argon2id m=${m} KiB t=${t} p=${lanes}`, await timeMs(argon2Async), 'chosen']);
rows.push(['Node, node:crypto (host)', `PBKDF2-SHA256 ${PBKDF2_ITERATIONS} it`, await timeMs(() => promisify(nodePbkdf2)(PASSWORD, salt, PBKDF2_ITERATIONS, 32, 'sha256')), '']);
const encoded = await hashPassword(PASSWORD);
rows.push(['Node, host capability', 'hash() (PHC string)', await timeMs(() => hashPassword(PASSWORD)), '']);
rows.push(['Node, host capability', 'verify()', await timeMs(() => verifyPassword(PASSWORD, encoded)), '']);

sections.push(
  markdownTable(
    ['where', 'KDF', 'ms (median of 3)', 'note'],
    rows.map(([where, what, ms, note]) => [where, what, ms < 10 ? ms.toFixed(1) : Math.round(ms), note]),
    ['l', 'l', 'r', 'l'],
  ),
);

/** End to end: POST /api/auth/password/login against the real host (SQLite), one at a time. */
async function loginLatencies(count: number): Promise<Array<[string, number, number]>> {
  const host = await startHost({ env: { AUTH_LOGIN_MAX_FAILURES: '1000' } });
  try {
    const email = `bench-${Date.now()}@example.com`;
    const post = (path: string, body: unknown) => fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/api/auth/password/register', { email, password: PASSWORD });
    const measure = async (body: (i: number) => unknown, expected: number): Promise<[number, number]> => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const response = await post('/api/auth/password/login', body(i));
        await response.arrayBuffer();
        if (response.status !== expected) throw new Error(`login answered ${response.status}`);
        samples.push(performance.now() - started);
      }
      const sorted = ascending(samples);
      return [percentile(sorted, 50), percentile(sorted, 90)];
    };
    const ok = await measure(() => ({ email, password: PASSWORD }), 200);
    const unknown = await measure((i) => ({ email: `nobody-${i}-${Date.now()}@example.com`, password: PASSWORD }), 401);
    return [
      ['login, right password (200)', ...ok],
      ['login, unknown email (401)', ...unknown],
    ];
  } finally {
    await host.stop();
  }
}

const count = Number(flags.logins);
sections.push(
  markdownTable(
    [`over HTTP (real host + component, ${count} sequential)`, 'p50 ms', 'p90 ms'],
    (await loginLatencies(count)).map(([what, p50, p90]) => [what, Math.round(p50), Math.round(p90)]),
    ['l', 'r', 'r'],
  ),
);

async function runtimes(): Promise<void> {
  const wasmtime = requireTool('wasmtime');
  if (!wasmtime) return;
  sections.push(await passwordRuntimeTable(wasmtime.path));
}
try {
  await runtimes();
} finally {
  // What was measured is printed even when the runtime rows fail (a missing outside tool).
  publish('Password hashing benchmark (npm run bench -- password)', sections.join('\n\n'), flags.out);
}
