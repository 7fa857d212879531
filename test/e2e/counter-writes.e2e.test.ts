/**
 * COUNTER_WRITES=signed-in from the attacker's side, over real sockets, on the Node host (REST,
 * server functions, gRPC with @grpc/grpc-js) and under `wasmtime serve` (REST, server functions):
 * no cookie, a forged cookie, a cookie of another deployment, an expired session and the user's own
 * cookie sent from another site are each refused on every surface and write nothing; a signed-in
 * user's command is taken and its event records the user id (read from the store itself), never
 * the email. docs/auth.md "Routes that require a session"; OWASP Session Management Cheat Sheet.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeCounterRequestSchema, CounterViewSchema } from '../../src/gen/counter_pb.js';
import { CounterClient, grpc } from '../../harness/grpc.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { register, SESSION_COOKIE, uniqueEmail } from '../auth/support.ts';

interface Server {
  url: string;
}

const FORGED = `${SESSION_COOKIE}=${'Q'.repeat(43)}`;

const json = (server: Server, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The HTTP command surfaces: a REST route and a server function of each shape. */
const HTTP_COMMANDS: Array<{ name: string; send(server: Server, headers?: Record<string, string>): Promise<Response> }> = [
  { name: 'REST increment', send: (server, headers) => json(server, '/api/counter/increment', { amount: 1 }, headers) },
  { name: 'REST reset', send: (server, headers) => fetch(`${server.url}/api/counter/reset`, { method: 'POST', headers }) },
  { name: 'server function decrement_count', send: (server, headers) => json(server, '/api/decrement_count', { amount: 1 }, headers) },
  { name: 'server function reset_count', send: (server, headers) => fetch(`${server.url}/api/reset_count`, { method: 'POST', headers }) },
];

async function expectRefused(response: Response, status: number, code: string, what: string): Promise<void> {
  expect(response.status, what).toBe(status);
  expect(((await response.json()) as { error: { code: string } }).error.code, what).toBe(code);
}

async function count(server: Server): Promise<{ count: number; last_sequence: number }> {
  return (await (await fetch(`${server.url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
}

/** Every HTTP surface refuses `headers` with `status`/`code`, and the counter does not move. */
async function refusedEverywhere(server: Server, headers: Record<string, string>, status = 401, code = 'unauthorized'): Promise<void> {
  const before = await count(server);
  for (const command of HTTP_COMMANDS) await expectRefused(await command.send(server, headers), status, code, command.name);
  expect(await count(server)).toEqual(before);
}

function grpcCall(client: CounterClient, cookie?: string) {
  const metadata = new grpc.Metadata();
  if (cookie !== undefined) metadata.set('cookie', cookie);
  return client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 1 }, { deadline: Date.now() + 20_000 }, metadata);
}

async function grpcStatus(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return grpc.status.OK;
  } catch (error) {
    return (error as grpc.ServiceError).code;
  }
}

describe('COUNTER_WRITES=signed-in on the Node host', () => {
  let host: HostProcess;
  let other: HostProcess;
  let client: CounterClient;

  beforeAll(async () => {
    [host, other] = await Promise.all([startHost({ env: { COUNTER_WRITES: 'signed-in' }, args: ['--transport', 'both'] }), startHost()]);
    client = new CounterClient(`127.0.0.1:${host.port}`);
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await Promise.all([host?.stop(), other?.stop()]);
  });

  it('refuses a command without a session on every surface: 401 in the envelope, gRPC UNAUTHENTICATED', async () => {
    await refusedEverywhere(host, {});
    expect(await grpcStatus(grpcCall(client))).toBe(grpc.status.UNAUTHENTICATED);
    expect((await count(host)).last_sequence).toBe(0);
  });

  it('refuses a forged session cookie on every surface', async () => {
    await refusedEverywhere(host, { cookie: FORGED });
    expect(await grpcStatus(grpcCall(client, FORGED))).toBe(grpc.status.UNAUTHENTICATED);
  });

  it("refuses another deployment's session (a real cookie from another host and store)", async () => {
    const elsewhere = await register(other.url, uniqueEmail('elsewhere'));
    const cookie = `${SESSION_COOKIE}=${elsewhere.sessionId}`;
    expect((await (await fetch(`${other.url}/api/auth/session`, { headers: { cookie } })).json()) as object).toMatchObject({ authenticated: true });
    await refusedEverywhere(host, { cookie });
    expect(await grpcStatus(grpcCall(client, cookie))).toBe(grpc.status.UNAUTHENTICATED);
  });

  it("refuses the user's own cookie sent from another site's page (403, nothing written)", async () => {
    const user = await register(host.url, uniqueEmail('cross-site'));
    const cookie = `${SESSION_COOKIE}=${user.sessionId}`;
    await refusedEverywhere(host, { cookie, origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }, 403, 'forbidden');
  });

  it("takes a signed-in user's command on every surface; the store records the user id, never the email", async () => {
    const email = uniqueEmail('writer');
    const user = await register(host.url, email);
    const cookie = `${SESSION_COOKIE}=${user.sessionId}`;
    for (const command of HTTP_COMMANDS) expect((await command.send(host, { cookie })).status, command.name).toBe(200);
    const view = await grpcCall(client, cookie);
    expect(view.latestEvents[0]?.userId).toBe(user.userId);
    const rest = (await (await json(host, '/api/counter/increment', { amount: 3 }, { cookie })).json()) as { latest_events: Array<{ user_id?: string }> };
    expect(rest.latest_events.map((e) => e.user_id)).toEqual(Array(5).fill(user.userId));

    const db = new DatabaseSync(join(host.dataDir, 'app.sqlite'), { readOnly: true });
    try {
      const rows = db.prepare("SELECT metadata FROM app_events WHERE stream_id = 'counter-global'").all() as Array<{ metadata: string }>;
      expect(rows).toHaveLength(HTTP_COMMANDS.length + 2);
      for (const { metadata } of rows) {
        expect(JSON.parse(metadata)).toEqual({ schema_version: 1, user_id: user.userId });
        expect(metadata).not.toContain(email);
        expect(metadata).not.toContain(user.sessionId);
      }
    } finally {
      db.close();
    }
  });
});

describe('COUNTER_WRITES=signed-in: an expired session', () => {
  let host: HostProcess;
  let client: CounterClient;

  beforeAll(async () => {
    host = await startHost({ env: { COUNTER_WRITES: 'signed-in', AUTH_SESSION_TTL_SECONDS: '2' }, args: ['--transport', 'both'] });
    client = new CounterClient(`127.0.0.1:${host.port}`);
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await host?.stop();
  });

  it('is refused on every surface once its lifetime is over, though the browser would still send it', async () => {
    const user = await register(host.url, uniqueEmail('expiring'));
    const cookie = `${SESSION_COOKIE}=${user.sessionId}`;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await refusedEverywhere(host, { cookie });
    expect(await grpcStatus(grpcCall(client, cookie))).toBe(grpc.status.UNAUTHENTICATED);
  });
});

const wasmtime = requireTool('wasmtime');

describe.skipIf(!wasmtime)('COUNTER_WRITES=signed-in under wasmtime serve', () => {
  let server: WasmtimeProcess;
  let other: HostProcess;

  beforeAll(async () => {
    [server, other] = await Promise.all([startWasmtime({ instanceReuse: 16, guestEnv: { COUNTER_WRITES: 'signed-in' } }, wasmtime!.path), startHost()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([server?.stop(), other?.stop()]);
  });

  it('refuses no cookie, a forged one, another deployment’s and one from another site, and writes nothing', async () => {
    await refusedEverywhere(server, {});
    await refusedEverywhere(server, { cookie: FORGED });
    const elsewhere = await register(other.url, uniqueEmail('elsewhere'));
    await refusedEverywhere(server, { cookie: `${SESSION_COOKIE}=${elsewhere.sessionId}` });
    const user = await register(server.url, uniqueEmail('cross-site'));
    await refusedEverywhere(server, { cookie: `${SESSION_COOKIE}=${user.sessionId}`, origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }, 403, 'forbidden');
    expect((await count(server)).last_sequence).toBe(0);
  });

  it("takes a signed-in user's command, recording the user id in the view", async () => {
    const user = await register(server.url, uniqueEmail('writer'));
    const cookie = `${SESSION_COOKIE}=${user.sessionId}`;
    for (const command of HTTP_COMMANDS) expect((await command.send(server, { cookie })).status, command.name).toBe(200);
    const view = (await (await fetch(`${server.url}/api/counter/view`)).json()) as { latest_events: Array<{ user_id?: string }> };
    expect(view.latest_events.map((e) => e.user_id)).toEqual(Array(4).fill(user.userId));
  });
});
