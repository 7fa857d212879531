/** The SSE producer over the in-memory platform: what a wake-up costs and when the store decides. */
import { describe, expect, it } from 'vitest';
import { executeCounterCommand } from './application/execute-command.ts';
import type { CounterView } from './application/view.ts';
import { counterStreamRoutes, STREAM_PATH } from './stream.ts';
import { TEST_CHANNEL, testCounterDeps, type TestCounterDeps } from './testing.ts';

const decoder = new TextDecoder();

/** Opens the stream and reads until it has subscribed (the in-memory wait returns at once). */
async function openStream(deps: TestCounterDeps) {
  const response = await counterStreamRoutes(deps).request(STREAM_PATH);
  const reader = response.body!.getReader();
  const read = async () => decoder.decode((await reader.read()).value);
  expect(await read()).toContain('retry: 1000');
  // The first wait subscribes and re-reads; the in-memory `next` returns at once without a
  // message, which the stream takes as "check the client" and answers with a keepalive.
  expect(await read()).toBe(': keepalive\n\n');
  return { read, cancel: () => reader.cancel() };
}

const viewOf = (frame: string): CounterView => JSON.parse(/^data: (.*)$/m.exec(frame)![1]!).view;

describe('SSE stream wake-ups', () => {
  it('sends the view a current message carries after reading only the counter revision', async () => {
    const deps = testCounterDeps();
    const stream = await openStream(deps);
    const view = await executeCounterCommand(deps, { type: 'increment', amount: 3 });
    const readsBefore = deps.platform.faults.calls('readStream');
    const frame = await stream.read();
    expect(viewOf(frame)).toEqual(view);
    expect(frame).toContain(`id: ${view.last_sequence}\n`);
    expect(deps.platform.faults.calls('readStream')).toBe(readsBefore);
    expect(deps.platform.faults.calls('streamRevision')).toBeGreaterThan(0);
    await stream.cancel();
  });

  it('re-reads the whole view when the message is stale, duplicated or not a view', async () => {
    const deps = testCounterDeps();
    const stream = await openStream(deps);
    await executeCounterCommand(deps, { type: 'increment', amount: 1 });
    await stream.read();
    // Two more commands, but only the OLD announcement (and garbage) arrives: the store decides.
    const stale = deps.platform.pubsub.published.at(-1)!.message;
    const publishedBefore = deps.platform.pubsub.published.length;
    await executeCounterCommand(deps, { type: 'increment', amount: 1 });
    const latest = await executeCounterCommand(deps, { type: 'increment', amount: 1 });
    expect(deps.platform.pubsub.published.length).toBe(publishedBefore + 2);
    // Replace what the subscription queued with a stale message and a non-view.
    const frame = await readAfter(deps, stream, [stale, 'not json']);
    expect(viewOf(frame)).toEqual(latest);
    await stream.cancel();
  });

  it('clamps a start position beyond the store head: the first frame is the current state', async () => {
    const deps = testCounterDeps();
    const view = await executeCounterCommand(deps, { type: 'increment', amount: 4 });
    const response = await counterStreamRoutes(deps).request(STREAM_PATH, { headers: { 'last-event-id': String(view.last_sequence + 50) } });
    const reader = response.body!.getReader();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain('retry: 1000');
    expect(viewOf(first.slice(first.indexOf('id:')))).toEqual(view);
    await reader.cancel();
  });
});

/** Empties the stream's queued messages and queues `messages` instead, then reads the next frame. */
async function readAfter(deps: TestCounterDeps, stream: { read(): Promise<string> }, messages: string[]): Promise<string> {
  const queue = deps.platform.pubsub.queueOf(TEST_CHANNEL);
  queue.splice(0, queue.length, ...messages);
  return stream.read();
}
