/**
 * The soak's mixed load (bench/soak.ts, bench/retirement.ts): `clients` closed loops, each cycling
 * through one exchange of every route family the target serves: counter REST reads and writes,
 * the UI's server functions (increment_count, get_counter_view), password login + session check,
 * a /pkg asset, an SSE connect/first frame/drop and, where the
 * target speaks gRPC, a unary call and a WatchCounter stream (first message, cancel).
 */
import http from 'node:http';
import { CounterViewSchema, GetCounterViewRequestSchema, WatchCounterRequestSchema, WatchCounterResponseSchema } from '../src/gen/counter_pb.js';
import { collect, CounterClient } from '../test/support/grpc.ts';
import { openSse } from '../test/support/sse.ts';

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

type Response = { status: number; headers: http.IncomingHttpHeaders; text: string };

export async function mixedLoad(base: string, options: { grpc: boolean; sockets: number }): Promise<MixedLoad> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.sockets });
  const grpcClient = options.grpc ? new CounterClient(new URL(base).host) : undefined;

  function request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json', ...headers } : headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          res.statusCode && res.statusCode < 400 ? resolve({ status: res.statusCode, headers: res.headers, text }) : reject(new Error(`${method} ${path}: ${res.statusCode}`)),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
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
      email = request('POST', '/api/auth/password/register', JSON.stringify({ email: address, password })).then(() => address);
      accounts.set(client, email);
    }
    return email;
  };
  const asset = (await request('GET', '/')).text.match(/\/pkg\/[A-Za-z0-9._-]+/)?.[0] ?? '/pkg/missing';

  const families: Array<[string, (client: number) => Promise<unknown>]> = [
    ['GET view', () => request('GET', '/api/counter/view')],
    ['POST increment', () => request('POST', '/api/counter/increment', '{"amount":1}')],
    ['GET view', () => request('GET', '/api/counter/view')],
    ['/pkg asset', () => request('GET', asset)],
    [
      'server functions',
      async () => {
        await request('POST', '/api/increment_count', '{"amount":1}');
        await request('GET', '/api/get_counter_view');
      },
    ],
    [
      'login + session',
      async (client) => {
        const login = await request('POST', '/api/auth/password/login', JSON.stringify({ email: await account(client), password }));
        const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
        await request('GET', '/api/auth/session', undefined, { cookie });
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
      agent.destroy();
    },
  };
}
