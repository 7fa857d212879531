/**
 * The composed password component under `wasmtime serve` beside the Node host's native Argon2id
 * (part of `npm run bench:password`): hash and verify latency (p50/p99; under wasmtime measured
 * over HTTP through a test-only entry, test/wasmtime/password-probe.ts, so it includes a request),
 * and password logins per second at 4 concurrent clients against each real service.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { hashPassword, verifyPassword } from '../host/password/index.ts';
import { freePort, startHost, tempDataDir } from '../test/support/host-process.ts';
import { buildProbe } from '../test/support/wasmtime-probe-build.ts';
import { startWasmtime } from '../test/support/wasmtime-process.ts';
import { fmt, percentile, runLoad } from './load.ts';

const PASSWORD = 'correct horse battery staple';
/** The launcher's default (scripts/wasmtime/options.ts). */
const INSTANCE_REUSE = 128;

async function samples(count: number, once: () => Promise<unknown>): Promise<[number, number]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return [percentile(times, 50), percentile(times, 99)];
}

async function probeLatencies(wasmtime: string, count: number): Promise<{ hash: [number, number]; verify: [number, number] }> {
  const component = await buildProbe(join(import.meta.dirname, '..', 'test', 'wasmtime', 'password-probe.ts'), wasmtime);
  const port = await freePort();
  const child = spawn(
    wasmtime,
    [
      'serve',
      '-S',
      'cli=y',
      '--allow-precompiled',
      '--max-instance-reuse-count',
      String(INSTANCE_REUSE),
      '--addr',
      `127.0.0.1:${port}`,
      '--dir',
      `${tempDataDir('bench-pw-')}::/data`,
      component,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('Serving HTTP') && resolve());
      child.once('exit', (code) => reject(new Error(`wasmtime exited with ${code}`)));
    });
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      return ((await response.json()) as { value: string }).value;
    };
    const encoded = await call('/hash', { password: PASSWORD });
    return { hash: await samples(count, () => call('/hash', { password: PASSWORD })), verify: await samples(count, () => call('/verify', { password: PASSWORD, encoded })) };
  } finally {
    child.kill('SIGKILL');
  }
}

async function loginsPerSecond(url: string): Promise<number> {
  const email = `bench-${Date.now()}@example.com`;
  const body = JSON.stringify({ email, password: PASSWORD });
  const register = await fetch(`${url}/api/auth/password/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (register.status !== 201) throw new Error(`register answered ${register.status}`);
  const result = await runLoad({
    url: `${url}/api/auth/password/login`,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    concurrency: 4,
    durationMs: 10_000,
    warmupMs: 2_000,
  });
  if (result.errors > 0) throw new Error(`${result.errors} logins failed`);
  return result.throughput;
}

/** Markdown rows: Node host native Argon2id, then the composed component under wasmtime serve. */
export async function passwordRuntimeTable(wasmtime: string, count = 30): Promise<string> {
  const encoded = await hashPassword(PASSWORD);
  const node = { hash: await samples(count, () => hashPassword(PASSWORD)), verify: await samples(count, () => verifyPassword(PASSWORD, encoded)) };
  const host = await startHost({ env: { AUTH_LOGIN_MAX_FAILURES: '1000' } });
  const nodeLogins = await loginsPerSecond(host.url).finally(() => host.stop());
  const composed = await probeLatencies(wasmtime, count);
  const server = await startWasmtime({ instanceReuse: INSTANCE_REUSE }, wasmtime);
  const wasmtimeLogins = await loginsPerSecond(server.url).finally(() => server.stop());
  const row = (where: string, r: typeof node, logins: number) =>
    `| ${where} | ${fmt(r.hash[0])} | ${fmt(r.hash[1])} | ${fmt(r.verify[0])} | ${fmt(r.verify[1])} | ${fmt(logins)} |`;
  return [
    `| Argon2id m=19456 t=2 p=1 (${count} sequential each) | hash p50 ms | hash p99 ms | verify p50 ms | verify p99 ms | logins/s, 4 concurrent |`,
    '|---|---:|---:|---:|---:|---:|',
    row('Node host, node:crypto (native, libuv pool)', node, nodeLogins),
    row(`wasmtime serve, composed Zig component (over HTTP, reuse ×${INSTANCE_REUSE})`, composed, wasmtimeLogins),
  ].join('\n');
}
