import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { threadPubSub } from './threads.ts';
import type { PubSubBackend } from './types.ts';

const open: PubSubBackend[] = [];
const make = (name: string) => {
  const p = threadPubSub(name);
  open.push(p);
  return p;
};
afterEach(() => {
  for (const p of open.splice(0)) void p.close();
});

const next = (p: PubSubBackend, channel: string) =>
  new Promise<string>((resolve) => {
    const stop = p.listen(channel, (m) => {
      stop();
      resolve(m);
    });
  });

describe('threadPubSub', () => {
  it('delivers to listeners in the publishing thread at once', () => {
    const p = make(randomUUID());
    const got: string[] = [];
    p.listen('updates', (m) => got.push(m));
    void p.publish('updates', 'one');
    expect(got).toEqual(['one']);
  });

  it('delivers to another thread of the same host, and not to another host', async () => {
    const name = randomUUID();
    const here = make(name);
    const otherHost = make(randomUUID());
    const strays: string[] = [];
    otherHost.listen('updates', (m) => strays.push(m));
    // A second thread publishes on the same name through its own BroadcastChannel, and keeps it
    // open until told to stop (closing right after posting may drop the message in flight).
    const worker = new Worker(
      `const { BroadcastChannel, parentPort } = require('node:worker_threads');
       const b = new BroadcastChannel(${JSON.stringify(name)});
       b.postMessage({ channel: 'updates', message: 'from-worker' });
       parentPort.once('message', () => b.close());`,
      { eval: true },
    );
    expect(await next(here, 'updates')).toBe('from-worker');
    const exited = new Promise((r) => worker.once('exit', r));
    worker.postMessage('stop');
    await exited;
    expect(strays).toEqual([]);
  });

  it('ignores malformed messages', async () => {
    const name = randomUUID();
    const here = make(name);
    const got: string[] = [];
    here.listen('updates', (m) => got.push(m));
    const worker = new Worker(
      `const { BroadcastChannel, parentPort } = require('node:worker_threads');
       const b = new BroadcastChannel(${JSON.stringify(name)});
       b.postMessage('junk'); b.postMessage({ channel: 1 }); b.postMessage({ channel: 'updates', message: 'ok' });
       parentPort.once('message', () => b.close());`,
      { eval: true },
    );
    await expect.poll(() => got).toEqual(['ok']);
    const exited = new Promise((r) => worker.once('exit', r));
    worker.postMessage('stop');
    await exited;
  });
});
