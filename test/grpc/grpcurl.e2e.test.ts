/**
 * CounterService through the real grpcurl against the real host (HTTP/2 cleartext on the same
 * port as REST): every method with `-proto` and through server reflection, `list` and `describe`,
 * and each error mapping grpcurl can provoke.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { grpcurl, jsonMessages, PROTO, SERVICE } from '../../harness/grpc.ts';
import { requireTool } from '../../harness/tools.ts';

const tool = requireTool('grpcurl');
const SHORT_GRACE = ['--shutdown-grace-ms', '500'];

interface View {
  count: number;
  lastSequence: string;
  latestEvents?: Array<{ sequence: string; eventType: string; revision: string; payload: string; recordedAt: string }>;
  realtimeEnabled: boolean;
}

describe.skipIf(!tool)('grpcurl against CounterService', () => {
  let host: HostProcess;
  let target: string;
  const call = (method: string, data: string, extra: string[] = []) => grpcurl(tool!, target, ['-d', data, ...extra], `${SERVICE}/${method}`);
  const expectOk = (result: { code: number | null; stderr: string }) => expect(result.code, result.stderr).toBe(0);
  const expectStatus = (result: { code: number | null; stderr: string }, code: string, message?: string) => {
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`Code: ${code}`);
    if (message !== undefined) expect(result.stderr).toContain(`Message: ${message}`);
  };

  beforeAll(async () => {
    host = await startHost({ args: ['--transport', 'both', ...SHORT_GRACE] });
    target = `127.0.0.1:${host.port}`;
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('lists the services and their methods through reflection', async () => {
    const services = await grpcurl(tool!, target, [], 'list');
    expectOk(services);
    expect(services.stdout.trim().split('\n').sort()).toEqual([SERVICE, 'grpc.reflection.v1.ServerReflection', 'grpc.reflection.v1alpha.ServerReflection']);
    const methods = await grpcurl(tool!, target, [], 'list', SERVICE);
    expectOk(methods);
    expect(methods.stdout.trim().split('\n').sort()).toEqual(
      ['ApplyChanges', 'Decrement', 'GetCounterView', 'Increment', 'Interact', 'Reset', 'WatchCounter'].map((m) => `${SERVICE}.${m}`),
    );
  });

  it('describes the service and its messages through reflection', async () => {
    const describe_ = async (symbol: string) => {
      const result = await grpcurl(tool!, target, [], 'describe', symbol);
      expectOk(result);
      return result.stdout;
    };
    const service = await describe_(SERVICE);
    expect(service).toContain('rpc Increment ( .counter.v1.ChangeCounterRequest ) returns ( .counter.v1.CounterView );');
    expect(service).toContain('rpc WatchCounter ( .counter.v1.WatchCounterRequest ) returns ( stream .counter.v1.WatchCounterResponse );');
    expect(service).toContain('rpc ApplyChanges ( stream .counter.v1.ChangeCounterRequest ) returns ( .counter.v1.CounterView );');
    expect(service).toContain('rpc Interact ( stream .counter.v1.InteractRequest ) returns ( stream .counter.v1.InteractResponse );');
    const view = await describe_('counter.v1.CounterView');
    expect(view).toContain('uint64 last_sequence = 3;');
    expect(view).toContain('repeated .counter.v1.EventLog latest_events = 2;');
    expect(await describe_('counter.v1.ChangeCounterRequest')).toContain('.counter.v1.ChangeOperation operation = 2;');
    expect(await describe_('counter.v1.ChangeOperation')).toContain('CHANGE_OPERATION_RESET = 3;');
    expect(await describe_(`${SERVICE}.Increment`)).toContain('rpc Increment');
    const missing = await grpcurl(tool!, target, [], 'describe', 'counter.v1.Nope');
    expect(missing.code).not.toBe(0);
  });

  for (const mode of ['reflection', '-proto'] as const) {
    const flags = mode === '-proto' ? ['-import-path', dirname(PROTO), '-proto', basename(PROTO)] : [];

    it(`runs every unary method (${mode})`, async () => {
      const reset = jsonMessages((await call('Reset', '{}', flags)).stdout)[0] as unknown as View;
      expect(reset.count ?? 0).toBe(0);
      const inc = await call('Increment', '{"amount": 5}', flags);
      expectOk(inc);
      const afterInc = jsonMessages(inc.stdout)[0] as unknown as View;
      expect(afterInc.count).toBe(5);
      expect(BigInt(afterInc.lastSequence)).toBeGreaterThan(BigInt(reset.lastSequence));
      expect(afterInc.latestEvents?.[0]).toMatchObject({ eventType: 'incremented', payload: '{"amount":5,"value":5}', sequence: afterInc.lastSequence });
      expect(afterInc.realtimeEnabled).toBe(true);
      const dec = jsonMessages((await call('Decrement', '{"amount": 2}', flags)).stdout)[0] as unknown as View;
      expect(dec.count).toBe(3);
      const view = await call('GetCounterView', '{}', flags);
      expectOk(view);
      const got = jsonMessages(view.stdout)[0] as unknown as View;
      expect(got.count).toBe(3);
      expect(got.lastSequence).toBe(dec.lastSequence);
      // the same state over REST
      const rest = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
      expect(rest).toMatchObject({ count: 3, last_sequence: Number(dec.lastSequence) });
    });

    it(`streams WatchCounter: the current state first, then each new state (${mode})`, async () => {
      const before = jsonMessages((await call('GetCounterView', '{}', flags)).stdout)[0] as unknown as View;
      // The increment below must be answered within the watch's time: one grpcurl run took 4-20 s
      // at load 25-35 (2 cores), so the watch is given 30 s; it ends at its deadline, the status asserted.
      const watching = call('WatchCounter', `{"last_sequence": ${before.lastSequence}}`, [...flags, '-max-time', '30']);
      await new Promise((r) => setTimeout(r, 1_500));
      const inc = jsonMessages((await call('Increment', '{"amount": 1}', flags)).stdout)[0] as unknown as View;
      const result = await watching;
      expectStatus(result, 'DeadlineExceeded');
      const replies = jsonMessages(result.stdout) as unknown as Array<{ view: View; lastSequence: string }>;
      expect(replies[0]?.lastSequence).toBe(before.lastSequence);
      expect(replies.map((r) => r.lastSequence)).toContain(inc.lastSequence);
      expect(replies.at(-1)?.view.count).toBe(inc.count);
    });

    it(`applies a client stream of changes in order with ApplyChanges (${mode})`, async () => {
      await call('Reset', '{}', flags);
      const changes = [
        { amount: 10, operation: 'CHANGE_OPERATION_INCREMENT' },
        { amount: 4, operation: 'CHANGE_OPERATION_DECREMENT' },
        { amount: 1, operation: 'CHANGE_OPERATION_INCREMENT' },
      ];
      const result = await call('ApplyChanges', changes.map((c) => JSON.stringify(c)).join('\n'), flags);
      expectOk(result);
      const view = jsonMessages(result.stdout)[0] as unknown as View;
      expect(view.count).toBe(7);
      expect(view.latestEvents?.slice(0, 4).map((e) => e.eventType)).toEqual(['incremented', 'decremented', 'incremented', 'reset_performed']);
    });

    it(`answers each Interact message (${mode})`, async () => {
      const messages = [{ watch: {} }, { change: { amount: 2, operation: 'CHANGE_OPERATION_INCREMENT' } }, { change: { operation: 'CHANGE_OPERATION_RESET' } }];
      const result = await call('Interact', messages.map((m) => JSON.stringify(m)).join('\n'), flags);
      expectOk(result);
      const replies = jsonMessages(result.stdout) as unknown as Array<{ view: View; lastSequence: string }>;
      expect(replies).toHaveLength(3);
      expect(replies[1]!.view.count).toBe((replies[0]!.view.count ?? 0) + 2);
      expect(replies[2]!.view.count ?? 0).toBe(0);
      expect(BigInt(replies[2]!.lastSequence)).toBe(BigInt(replies[1]!.lastSequence) + 1n);
    });
  }

  it('maps validation errors to INVALID_ARGUMENT and a refusal by the count to FAILED_PRECONDITION, with the public message', async () => {
    expectStatus(await call('Increment', '{"amount": 0}'), 'InvalidArgument', 'amount must be positive');
    expectStatus(await call('Decrement', '{"amount": -3}'), 'InvalidArgument', 'amount must be positive');
    expectStatus(await call('ApplyChanges', ''), 'InvalidArgument', 'ApplyChanges needs at least one change');
    expectStatus(await call('ApplyChanges', '{"amount": 1}'), 'InvalidArgument', 'operation must be increment, decrement or reset');
    await call('Reset', '{}');
    await call('Increment', '{"amount": 2147483647}');
    expectStatus(await call('Increment', '{"amount": 1}'), 'FailedPrecondition', 'the counter would leave the 32-bit range');
    await call('Reset', '{}');
  });

  it('answers an unknown method with UNIMPLEMENTED', async () => {
    const dir = tempDataDir('grpc-proto-');
    const proto = join(dir, 'extra.proto');
    writeFileSync(
      proto,
      'syntax = "proto3";\npackage counter.v1;\nmessage Empty {}\nservice CounterService { rpc Explode(Empty) returns (Empty); }\nservice Elsewhere { rpc Ping(Empty) returns (Empty); }\n',
    );
    expectStatus(
      await grpcurl(tool!, target, ['-import-path', dir, '-proto', 'extra.proto', '-d', '{}'], `${SERVICE}/Explode`),
      'Unimplemented',
      `unknown method /${SERVICE}/Explode`,
    );
    expectStatus(await grpcurl(tool!, target, ['-import-path', dir, '-proto', 'extra.proto', '-d', '{}'], 'counter.v1.Elsewhere/Ping'), 'Unimplemented');
  });

  it('honours grpc-timeout: a watch past its deadline ends DEADLINE_EXCEEDED', async () => {
    const started = Date.now();
    const result = await call('WatchCounter', '{}', ['-max-time', '3']);
    expectStatus(result, 'DeadlineExceeded');
    // The current state first, if it came in time: -max-time counts from grpcurl's start, and at
    // load 25 its reflection requests alone used up a 1 s deadline before the watch was answered.
    expect(jsonMessages(result.stdout).length).toBeLessThanOrEqual(1);
    // Ended by the deadline, not left open: well under the harness's hang guard even at load 25-35.
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe.skipIf(!tool)('grpcurl: storage unavailable → UNAVAILABLE', () => {
  let redis: ChildProcess | undefined;
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.stop();
    if (redis && redis.exitCode === null) redis.kill('SIGKILL');
  });

  it('answers UNAVAILABLE with the public message once the store is gone', async () => {
    // A Redis server of this test's own, so stopping it affects no one else.
    const port = await freePort();
    const start = () => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      return child;
    };
    redis = start();
    await waitForPort(port);
    host = await startHost({
      args: [
        '--transport',
        'both',
        '--db',
        'redis',
        '--redis-url',
        `redis://127.0.0.1:${port}`,
        '--redis-prefix',
        `grpc-test-${randomUUID()}:`,
        '--realtime',
        'off',
        ...SHORT_GRACE,
      ],
    });
    const target = `127.0.0.1:${host.port}`;
    const inc = await grpcurl(tool!, target, ['-d', '{"amount": 1}'], `${SERVICE}/Increment`);
    expect(inc.code, inc.stderr).toBe(0);
    redis.kill('SIGKILL');
    await new Promise((r) => redis!.once('exit', r));
    const down = await grpcurl(tool!, target, ['-d', '{}'], `${SERVICE}/GetCounterView`);
    expect(down.stderr).toContain('Code: Unavailable');
    expect(down.stderr).toContain('Message: storage is unavailable, try again later');
    const downCommand = await grpcurl(tool!, target, ['-d', '{"amount": 1}'], `${SERVICE}/Increment`);
    expect(downCommand.stderr).toContain('Code: Unavailable');
  });
});

async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`port ${port} did not open`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
