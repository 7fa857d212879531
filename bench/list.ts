/**
 * Every benchmark `npm run bench -- <name>` runs (bench/run.ts), with its entry and what it
 * compares. docs/benchmarks.md has a row for each (test/docs/npm-commands.unit.test.ts).
 */
export interface Benchmark {
  name: string;
  /** The entry point under bench/. */
  entry: string;
  compares: string;
  /** Build variants it runs on besides the default one (built first). */
  variants?: readonly ('profile' | 'floor')[];
}

export const BENCHMARKS: readonly Benchmark[] = [
  {
    name: 'http',
    entry: 'http.ts',
    variants: ['floor'],
    compares:
      'the Node host (response cache off/on, --workers 2), jco serve, native Hono and wasmtime serve: GET, POST, a 90/10 mix; beside them the floor, a minimal component on each runtime',
  },
  { name: 'realtime', entry: 'realtime.ts', compares: 'host-held against guest-held SSE streams, 1 or 2 workers; increments per storage backend' },
  { name: 'grpc', entry: 'grpc.ts', compares: 'gRPC (HTTP/2) against REST (HTTP/1.1) on one host' },
  { name: 'transport', entry: 'transport-ab.ts', compares: 'the HTTP path with --transport http against both, in alternating rounds' },
  { name: 'scale', entry: 'scale.ts', compares: '1-3 hosts on SQLite, PostgreSQL, Redis writing one stream: throughput, round trips, CPU' },
  { name: 'scale-soak', entry: 'scale-soak.ts', compares: 'several hosts on one store under write load for minutes: RSS and throughput over time' },
  { name: 'soak', entry: 'soak.ts', compares: 'memory under sustained mixed load: Node host, --workers 2, wasmtime serve; each store' },
  { name: 'retirement', entry: 'retirement.ts', compares: "the instance-retirement safety net's settings against each other" },
  { name: 'overload', entry: 'overload.ts', compares: "one client's attacks against a fresh host each, with probes and legitimate traffic beside them" },
  { name: 'metrics', entry: 'metrics.ts', compares: 'the host with --metrics-port off and on; the per-operation cost of each instrument' },
  { name: 'profile', entry: 'profile.ts', variants: ['profile'], compares: "where a write's time goes: the guest's phases per surface, the host's import work" },
  {
    name: 'write-phases',
    entry: 'write-phases.ts',
    variants: ['profile'],
    compares: "a REST POST's phases, imports and host CPU by place: this checkout against another (--base), alternating",
  },
  { name: 'wasmtime', entry: 'wasmtime.ts', compares: 'the Node host against wasmtime serve (fresh and reused instances); start-up' },
  { name: 'password', entry: 'password-hashing.ts', compares: 'KDFs in the guest and on the host; Argon2id on the Node host against the composed Zig component' },
  { name: 'oauth-signatures', entry: 'oauth-signatures.ts', compares: 'RS256/ES256 in pure JS in the guest, as a host capability, natively' },
  { name: 'dev-loop', entry: 'dev-loop.ts', compares: "npm run dev: from saving a handler to its new answer, a static file's, a host file's" },
];
