/**
 * The pre-read's memory bound: bodies are read whole while the server's pre-reads hold less than
 * their budget; past it they stream to the guest as before, and every byte is given back once a
 * body is handed over. A real node:http server and client carry the bodies.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { BodySource } from '../wasi/http-incoming.ts';
import { prereadBody } from './body-preread.ts';
import { PrereadBudget } from '../admission/preread-budget.ts';
import { IntervalLog } from './interval-log.ts';

const silent = new IntervalLog({ log: () => undefined });

/** Every byte the source holds (it has ended: a read past the end throws `closed`). */
function queued(source: BodySource): string {
  let text = '';
  for (;;) {
    try {
      text += Buffer.from(source.queue.take(1_048_576)).toString();
    } catch {
      return text;
    }
  }
}

describe('prereadBody with a budget of pre-read bytes', () => {
  let server: http.Server | undefined;
  afterEach(() => server?.close());

  /** Serves one request whose body the test sends in two parts; resolves with the body source once the first part is in. */
  async function exchange(budget: PrereadBudget) {
    const sources: Array<Promise<BodySource | undefined>> = [];
    server = http.createServer((req, res) => {
      sources.push(Promise.resolve(prereadBody(req, res, { bodyTimeoutMs: 5_000, sendTimeoutMs: 0, events: silent, prereadBytes: budget })));
      void sources.at(-1)!.then(() => res.end());
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const request = http.request({ port: (server.address() as AddressInfo).port, method: 'POST', headers: { 'content-length': '20' } });
    request.on('error', () => undefined);
    request.write('0123456789');
    return { sources, request };
  }

  it('reads a body within the budget whole, then gives the bytes back', async () => {
    const budget = new PrereadBudget(100);
    const { sources, request } = await exchange(budget);
    await expect.poll(() => budget.used).toBe(10);
    request.end('abcdefghij');
    await expect.poll(() => sources.length).toBe(1);
    const source = (await sources[0])!;
    expect(source.done).toBe(true);
    expect(queued(source)).toBe('0123456789abcdefghij');
    expect(budget.used).toBe(0);
  });

  it('streams a body past the budget to the guest as it comes, holding nothing', async () => {
    const budget = new PrereadBudget(15);
    expect(budget.take(10)).toBe(true); // other bodies hold most of it
    const { sources, request } = await exchange(budget);
    await expect.poll(() => sources.length).toBe(1);
    const source = (await sources[0])!;
    expect(source.done).toBe(false);
    expect(budget.used).toBe(10);
    request.end('abcdefghij');
    await source.whenDone();
    expect(queued(source)).toBe('0123456789abcdefghij');
  });
});
