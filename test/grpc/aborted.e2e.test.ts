/**
 * ABORTED end to end with the real grpcurl: a store where every append loses its optimistic-
 * concurrency race (as if other writers always got there first) makes the shared command
 * routine give up after its bounded retries with `concurrency`, which gRPC reports as ABORTED
 * (REST as 409). The host runs in-process so the store can be wrapped; everything else is real.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost as startInProcess, type RunningHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { StorageFailure } from '../../host/storage/errors.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { grpcurl, SERVICE } from '../../harness/grpc.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { withAppends } from '../support/wrapped-appends.ts';
import { requireTool } from '../../harness/tools.ts';

const tool = requireTool('grpcurl');

function alwaysLosingAppends(storage: StorageBackend): StorageBackend {
  return withAppends(storage, (_append, streamId, expected) => {
    throw StorageFailure.conflict(streamId, expected, 1n);
  });
}

describe.skipIf(!tool)('grpcurl: lost concurrency races → ABORTED', () => {
  let host: RunningHost;
  beforeAll(async () => {
    const config = loadConfig(['--port', '0', '--transport', 'both', '--realtime', 'off', '--shutdown-grace-ms', '300'], {});
    const storage = alwaysLosingAppends(openSqliteStorage({ path: join(tempDataDir(), 'app.sqlite') }));
    host = await startInProcess(
      config,
      {},
      jsonLogger(() => undefined),
      { storage },
    );
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers ABORTED with the public message over gRPC, and 409 over REST', async () => {
    const result = await grpcurl(tool!, `127.0.0.1:${host.port}`, ['-d', '{"amount": 1}'], `${SERVICE}/Increment`);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Code: Aborted');
    expect(result.stderr).toMatch(/Message: .+/);
    expect(result.stderr).not.toMatch(/revision|conflict\(/i);
    const rest = await fetch(`http://127.0.0.1:${host.port}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
    expect(rest.status).toBe(409);
    expect(((await rest.json()) as { error: { code: string } }).error.code).toBe('concurrency');
  });
});
