/**
 * The composed password component under `wasmtime serve` beside the Node host's native Argon2id
 * (part of `npm run bench -- password`): hash and verify latency (p50/p99; under wasmtime measured
 * over HTTP through a test-only entry, test/wasmtime/password-probe.ts, so it includes a request),
 * and password logins per second at 4 concurrent clients against each real service; each for an
 * ASCII password and a non-ASCII one (NFKC: native ICU on the Node host, bundled unorm loaded on
 * an instance's first non-ASCII password under wasmtime). A fresh instance per request
 * (reuse ×1) shows what that first load costs.
 */
import { join } from 'node:path';
import { hashPassword, verifyPassword } from '../../host/password/index.ts';
import { startHost, tempDataDir } from '../../harness/host-process.ts';
import { buildProbe } from '../../harness/wasmtime-probe-build.ts';
import { startWasmtime } from '../../harness/wasmtime-process.ts';
import { wasmtimeServe } from '../../harness/wasmtime-serve.ts';
import { runLoad } from '../lib/load.ts';
import { ascending, percentile } from '../lib/stats.ts';
import { fmt, markdownTable } from '../lib/table.ts';

const PASSWORD = 'correct horse battery staple';
/** é decomposed and full-width letters: the guest normalizes it to 'clé full-width staple'. */
const NON_ASCII = 'cle\u0301 ｆｕｌｌ-width staple';
/** The launcher's default (scripts/wasmtime/options.ts). */
const INSTANCE_REUSE = 128;
/** Throttles off: the benchmark signs one account in from one address as fast as it can. */
const UNTHROTTLED = { AUTH_LOGIN_MAX_FAILURES: '1000', AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '100000' };

async function samples(count: number, once: () => Promise<unknown>): Promise<[number, number]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  const sorted = ascending(times);
  return [percentile(sorted, 50), percentile(sorted, 99)];
}

type Latencies = { hash: [number, number]; verify: [number, number] };

async function probeLatencies(wasmtime: string, count: number, reuse: number, passwords: string[]): Promise<Latencies[]> {
  const component = await buildProbe(join(import.meta.dirname, '..', '..', 'test', 'wasmtime', 'password-probe.ts'), wasmtime);
  const served = await wasmtimeServe(wasmtime, component, ['--allow-precompiled', '--max-instance-reuse-count', String(reuse), '--dir', `${tempDataDir('bench-pw-')}::/data`]);
  try {
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${served.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      return ((await response.json()) as { value: string }).value;
    };
    const results: Latencies[] = [];
    for (const password of passwords) {
      const encoded = await call('/hash', { password });
      results.push({ hash: await samples(count, () => call('/hash', { password })), verify: await samples(count, () => call('/verify', { password, encoded })) });
    }
    return results;
  } finally {
    await served.stop();
  }
}

async function loginsPerSecond(url: string, password: string): Promise<number> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const body = JSON.stringify({ email, password });
  const register = await fetch(`${url}/api/auth/password/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  // Registration answers 202 whether or not the email was free (it never signs in).
  if (register.status !== 202) throw new Error(`register answered ${register.status}`);
  const login = { method: 'POST', path: '/api/auth/password/login', headers: { 'content-type': 'application/json' }, body } as const;
  const result = await runLoad(url, login, { concurrency: 4, durationMs: 10_000, warmupMs: 2_000 });
  if (result.errors > 0) throw new Error(`${result.errors} logins failed`);
  return result.throughput;
}

/** Logins per second with the ASCII password, then with the non-ASCII one. */
async function bothLogins(url: string): Promise<number[]> {
  return [await loginsPerSecond(url, PASSWORD), await loginsPerSecond(url, NON_ASCII)];
}

/** Markdown rows: Node host native Argon2id, then the composed component under wasmtime serve; ASCII and non-ASCII passwords. */
export async function passwordRuntimeTable(wasmtime: string, count = 30): Promise<string> {
  const nodeLatencies = async (password: string): Promise<Latencies> => {
    const encoded = await hashPassword(password);
    return { hash: await samples(count, () => hashPassword(password)), verify: await samples(count, () => verifyPassword(password, encoded)) };
  };
  const node = [await nodeLatencies(PASSWORD), await nodeLatencies(NON_ASCII)];
  const host = await startHost({ env: UNTHROTTLED });
  const nodeLogins = await bothLogins(host.url).finally(() => host.stop());
  const composed = await probeLatencies(wasmtime, count, INSTANCE_REUSE, [PASSWORD, NON_ASCII]);
  const fresh = await probeLatencies(wasmtime, count, 1, [PASSWORD, NON_ASCII]);
  const server = await startWasmtime({ instanceReuse: INSTANCE_REUSE, guestEnv: UNTHROTTLED }, wasmtime);
  const wasmtimeLogins = await bothLogins(server.url).finally(() => server.stop());
  const row = (where: string, kind: string, r: Latencies, logins: number | undefined) => [
    where,
    kind,
    fmt(r.hash[0]),
    fmt(r.hash[1]),
    fmt(r.verify[0]),
    fmt(r.verify[1]),
    logins === undefined ? '–' : fmt(logins),
  ];
  const kinds = ['ASCII', 'non-ASCII'];
  return markdownTable(
    [`Argon2id m=19456 t=2 p=1 (${count} sequential each)`, 'password', 'hash p50 ms', 'hash p99 ms', 'verify p50 ms', 'verify p99 ms', 'logins/s, 4 concurrent'],
    [
      ...kinds.map((kind, i) => row('Node host, node:crypto (native, libuv pool)', kind, node[i]!, nodeLogins[i])),
      ...kinds.map((kind, i) => row(`wasmtime serve, composed Zig component (over HTTP, reuse ×${INSTANCE_REUSE})`, kind, composed[i]!, wasmtimeLogins[i])),
      ...kinds.map((kind, i) => row('wasmtime serve, fresh instance per request (reuse ×1)', kind, fresh[i]!, undefined)),
    ],
    ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
  );
}
