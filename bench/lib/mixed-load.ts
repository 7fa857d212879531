/**
 * The soak's mixed load (bench/soak.ts, bench/retirement.ts): `clients` closed loops, each cycling
 * through one exchange of every route family the target serves: counter REST reads and writes,
 * the UI's server functions (increment_count, get_counter_view), password login + session check,
 * a /pkg asset, an SSE connect/first frame/drop and, where the
 * target speaks gRPC, a unary call and a WatchCounter stream (first message, cancel).
 */
import { CounterViewSchema, GetCounterViewRequestSchema, WatchCounterRequestSchema, WatchCounterResponseSchema } from '../../src/gen/counter_pb.js';
import { collect, CounterClient } from '../../harness/grpc.ts';
import { openSse } from '../../harness/sse.ts';
import { Http1Client, type Http1Answer } from './http1-client.ts';

export interface MixedLoad {
  /** the families in the order each client cycles through them */
  readonly families: readonly string[];
  /** Runs the clients until `until()` is true; adds each finished exchange (or error) to the counters. */
  run(clients: number, until: () => boolean): Promise<void>;
  readonly counters: { exchanges: number; errors: number };
  /** Errors per family, with the first message seen (statuses and error codes only, no bodies). */
  readonly failures: Map<string, { count: number; first: string }>;
  close(): void;
}

export async function mixedLoad(base: string, options: { grpc: boolean }): Promise<MixedLoad> {
  const grpcClient = options.grpc ? new CounterClient(new URL(base).host) : undefined;
  /** One keep-alive connection per load client (index -1: the set-up's own). */
  const connections = new Map<number, Http1Client>();
  const connection = (client: number) => {
    let found = connections.get(client);
    if (!found) connections.set(client, (found = new Http1Client(base, { method: 'GET', path: '/' })));
    return found;
  };

  async function request(client: number, method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}): Promise<Http1Answer> {
    const answer = await connection(client).exchange({ method, path, body, headers: body ? { 'content-type': 'application/json', ...headers } : headers });
    if (answer.status === 0 || answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status}`);
    return answer;
  }

  // One account per client: concurrent logins to one account from one address would lock it
  // (attempts are reserved before the hash is checked: src/auth/application/rate-limit.ts).
  const run = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const password = 'correct horse battery staple';
  const accounts = new Map<number, Promise<string>>();
  const account = (client: number) => {
    let email = accounts.get(client);
    if (!email) {
      const address = `soak-${run}-${client}@example.test`;
      email = request(client, 'POST', '/api/auth/password/register', JSON.stringify({ email: address, password })).then(() => address);
      accounts.set(client, email);
    }
    return email;
  };
  const asset = (await request(-1, 'GET', '/')).body.toString('utf8').match(/\/pkg\/[A-Za-z0-9._-]+/)?.[0] ?? '/pkg/missing';

  const families: Array<[string, (client: number) => Promise<unknown>]> = [
    ['GET view', (client) => request(client, 'GET', '/api/counter/view')],
    ['POST increment', (client) => request(client, 'POST', '/api/counter/increment', '{"amount":1}')],
    ['GET view', (client) => request(client, 'GET', '/api/counter/view')],
    ['/pkg asset', (client) => request(client, 'GET', asset)],
    [
      'server functions',
      async (client) => {
        await request(client, 'POST', '/api/increment_count', '{"amount":1}');
        await request(client, 'GET', '/api/get_counter_view');
      },
    ],
    [
      'login + session',
      async (client) => {
        const login = await request(client, 'POST', '/api/auth/password/login', JSON.stringify({ email: await account(client), password }));
        const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        await request(client, 'GET', '/api/auth/session', undefined, { cookie });
      },
    ],
    [
      'SSE churn',
      async () => {
        const sse = await openSse(`${base}/api/counter/stream`);
        try {
          await sse.waitFor((f) => f.event === 'counter', 5_000);
        } finally {
          sse.close();
        }
      },
    ],
  ];
  if (grpcClient) {
    families.splice(3, 0, ['gRPC unary', () => grpcClient.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {})]);
    families.push([
      'gRPC stream',
      async () => {
        const call = grpcClient.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n });
        const watch = collect(call);
        try {
          await watch.waitFor(() => true, 5_000);
        } finally {
          call.cancel();
          await watch.status.catch(() => undefined);
        }
      },
    ]);
  }

  const counters = { exchanges: 0, errors: 0 };
  const failures = new Map<string, { count: number; first: string }>();
  return {
    failures,
    families: families.map(([name]) => name),
    counters,
    async run(clients, until) {
      await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          for (let i = c; !until(); i++) {
            const [name, exchange] = families[i % families.length]!;
            try {
              await exchange(c);
              counters.exchanges++;
            } catch (error) {
              counters.errors++;
              const seen = failures.get(name) ?? { count: 0, first: error instanceof Error ? error.message : String(error) };
              seen.count++;
              failures.set(name, seen);
            }
          }
        }),
      );
    },
    close() {
      grpcClient?.close();
      for (const client of connections.values()) client.close();
    },
  };
}
