/** The guest's side of the stream relay: the opening answer, polls, and what they never do. */
import { describe, expect, it } from 'vitest';
import { executeCounterCommand } from './application/execute-command.ts';
import { counterStreamRoutes, STREAM_PATH } from './stream.ts';
import { RELAY_HEADER, RELAY_POLL_HEADER } from '../contract/headers.ts';
import { TEST_CHANNEL, testCounterDeps } from './testing.ts';

const relayed = (deps: ReturnType<typeof testCounterDeps>) => counterStreamRoutes(deps, { relay: true });
const poll = (deps: ReturnType<typeof testCounterDeps>, after: string) => relayed(deps).request(STREAM_PATH, { headers: { [RELAY_POLL_HEADER]: after } });

describe('relayed SSE stream (guest side)', () => {
  it('opens with the retry hint and the catch-up frame, ends its body, and tells the host where to listen', async () => {
    const deps = testCounterDeps();
    const view = await executeCounterCommand(deps, { type: 'increment', amount: 2 });
    const response = await relayed(deps).request(`${STREAM_PATH}?last_sequence=0`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get(RELAY_HEADER)).toBe(`channel=${TEST_CHANNEL}; mode=pubsub; interval=500; after=${view.last_sequence}`);
    const body = await response.text(); // resolves: the body ends
    expect(body).toMatch(/^retry: 1000\n\n/);
    expect(body).toContain(`id: ${view.last_sequence}\nevent: counter\n`);
  });

  it('clamps a start position beyond the store head to the head, and sends the current state', async () => {
    const deps = testCounterDeps();
    const view = await executeCounterCommand(deps, { type: 'increment', amount: 2 });
    const ahead: Array<[string, Record<string, string>]> = [
      ['', { 'last-event-id': String(view.last_sequence + 1_000) }],
      [`?last_sequence=${view.last_sequence + 7}`, {}],
    ];
    for (const [query, headers] of ahead) {
      const response = await relayed(deps).request(`${STREAM_PATH}${query}`, { headers });
      expect(response.headers.get(RELAY_HEADER)).toMatch(new RegExp(`after=${view.last_sequence}$`));
      expect(await response.text()).toContain(`id: ${view.last_sequence}\nevent: counter\n`);
    }
    // At the head exactly: nothing to catch up.
    const atHead = await relayed(deps).request(`${STREAM_PATH}?last_sequence=${view.last_sequence}`);
    expect(await atHead.text()).toBe('retry: 1000\n\n');
  });

  it('still rejects an invalid start position with 400', async () => {
    const response = await relayed(testCounterDeps()).request(`${STREAM_PATH}?last_sequence=-1`);
    expect(response.status).toBe(400);
  });

  it('answers a poll with the newer state, or nothing, and never a position below the one asked', async () => {
    const deps = testCounterDeps();
    const view = await executeCounterCommand(deps, { type: 'increment', amount: 1 });
    const newer = await poll(deps, '0');
    expect(newer.headers.get(RELAY_HEADER)).toContain(`after=${view.last_sequence}`);
    expect(await newer.text()).toContain(`id: ${view.last_sequence}\n`);
    const ahead = await poll(deps, String(view.last_sequence + 5));
    expect(ahead.headers.get(RELAY_HEADER)).toContain(`after=${view.last_sequence + 5}`);
    expect(await ahead.text()).toBe('');
  });

  it('answers a storage failure with an error frame and keeps the position', async () => {
    const deps = testCounterDeps();
    deps.platform.failNext('readStream');
    const response = await poll(deps, '3');
    expect(response.headers.get(RELAY_HEADER)).toContain('after=3');
    expect(await response.text()).toMatch(/^event: error\ndata: \{"message":/);
  });

  it('reports the polling and off modes', async () => {
    const polling = await relayed(testCounterDeps({ realtime: { delivery: 'polling' } })).request(STREAM_PATH);
    expect(polling.headers.get(RELAY_HEADER)).toContain('mode=polling');
    const off = await relayed(testCounterDeps({ realtime: { enabled: false } })).request(STREAM_PATH);
    expect(off.headers.get(RELAY_HEADER)).toContain('mode=off');
  });

  it('ignores the poll header when the host does not relay (wasmtime serve)', async () => {
    const deps = testCounterDeps();
    const response = await counterStreamRoutes(deps).request(STREAM_PATH, { headers: { [RELAY_POLL_HEADER]: '0' } });
    expect(response.headers.get(RELAY_HEADER)).toBeNull();
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry: 1000');
    await reader.cancel();
  });
});
