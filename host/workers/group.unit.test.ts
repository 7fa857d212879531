import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { HostLogger } from '../log.ts';
import { startWorkerGroup } from './group.ts';

// Speaks the worker protocol (messages.ts) without starting a host: ready on the port it was
// given (worker 1 "picks" 4242 when given 0), stops on request; FAKE_CRASH / FAKE_FAIL pick a
// worker that dies after it is ready, or fails to start.
const FAKE_WORKER = new URL(
  `data:text/javascript,${encodeURIComponent(`
  import { parentPort, workerData } from 'node:worker_threads';
  const { index, config, env } = workerData;
  if (env.FAKE_FAIL === String(index)) {
    parentPort.postMessage({ type: 'failed', message: 'invalid configuration: AUTH_X', configError: true });
  } else {
    parentPort.postMessage({ type: 'ready', port: config.port || 4242, features: [] });
    parentPort.on('message', (m) => {
      if (m.type === 'stop') { parentPort.postMessage({ type: 'stopped', runs: index * 10 }); parentPort.close(); }
    });
    if (env.FAKE_CRASH === String(index)) setTimeout(() => { throw new Error('boom'); }, 50);
  }
`)}`,
);

function recorder() {
  const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const logger: HostLogger = { log: (level, msg, fields) => lines.push({ level, msg, fields }) };
  return { lines, logger };
}

const config = (workers: number) => ({ ...loadConfig(['--port', '0'], {}), workers });

describe('startWorkerGroup', () => {
  it('starts N workers on the port the first one picked, and stops them all', async () => {
    const { lines, logger } = recorder();
    const group = await startWorkerGroup(config(3), {}, logger, () => undefined, FAKE_WORKER);
    expect(group.port).toBe(4242);
    expect(group.workers).toBe(3);
    await group.stop();
    expect(lines.find((l) => l.fields?.['code'] === 'workers_stopped')?.fields?.['runs_per_worker']).toEqual([10, 20, 30]);
  });

  it('reports a worker that fails to start, keeping a configuration error a ConfigError', async () => {
    const { logger } = recorder();
    await expect(startWorkerGroup(config(2), { FAKE_FAIL: '2' }, logger, () => undefined, FAKE_WORKER)).rejects.toMatchObject({
      name: 'ConfigError',
      message: 'invalid configuration: AUTH_X',
    });
  });

  it('stops the others and reports a fatal error when a worker dies', async () => {
    const { lines, logger } = recorder();
    const fatal = new Promise<Error>((resolve) => void startWorkerGroup(config(2), { FAKE_CRASH: '2' }, logger, resolve, FAKE_WORKER));
    expect((await fatal).message).toMatch(/worker 2 exited with code 1/);
    expect(lines.find((l) => l.fields?.['code'] === 'worker_exited')?.fields).toMatchObject({ worker: 2, exit_code: 1 });
  });
});
