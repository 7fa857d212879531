/** The client's view store and status: never back in time; status from calls in flight and the stream. */
import { describe, expect, it } from 'vitest';
import type { CounterView } from '../../src/counter/application/view.ts';
import type { UiStatus } from '../../src/counter/pages/format.ts';
import { StatusTracker } from './status.ts';
import { ViewStore } from './view-store.ts';

const view = (count: number, lastSequence: number): CounterView => ({ count, latest_events: [], last_sequence: lastSequence, realtime_enabled: true });

describe('ViewStore', () => {
  it('takes newer views and ignores older or equal ones, whatever order they arrive in', () => {
    const store = new ViewStore(view(0, 0));
    const shown: number[] = [];
    store.onChange((v) => shown.push(v.count));
    expect(store.offer(view(3, 2))).toBe(true);
    expect(store.offer(view(1, 1))).toBe(false); // a slow response to an earlier click
    expect(store.offer(view(3, 2))).toBe(false); // the same state again from the stream
    expect(store.offer(view(0, 3))).toBe(true); // a reset is newer even with a smaller count
    expect(shown).toEqual([3, 0]);
    expect(store.current.last_sequence).toBe(3);
  });
});

describe('StatusTracker', () => {
  function tracker() {
    const seen: UiStatus[] = [];
    return { status: new StatusTracker((s) => seen.push(s)), seen };
  }

  it('is ready without a stream, syncing while a call is in flight', () => {
    const { status, seen } = tracker();
    expect(status.current).toBe('ready');
    status.begin();
    status.begin();
    status.end(false);
    expect(status.current).toBe('syncing');
    status.end(false);
    expect(seen).toEqual(['syncing', 'syncing', 'syncing', 'ready']);
  });

  it('follows the stream: connecting is syncing, open is live, broken is error', () => {
    const { status } = tracker();
    status.stream('connecting');
    expect(status.current).toBe('syncing');
    status.stream('open');
    expect(status.current).toBe('live');
    status.stream('broken');
    expect(status.current).toBe('error');
  });

  it('shows error after a failed call until the next call succeeds', () => {
    const { status } = tracker();
    status.stream('open');
    status.begin();
    status.end(true);
    expect(status.current).toBe('error');
    status.begin();
    status.end(false);
    expect(status.current).toBe('live');
  });
});
