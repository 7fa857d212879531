import { describe, expect, it } from 'vitest';
import type { HeldLease, NewEvent, RecordedEvent, StreamLeaseBackend } from '../storage/types.ts';
import { leaseImports, MAX_HANDOFFS } from './lease-imports.ts';
import { StreamTails } from '../leases/stream-tails.ts';

const silent = { log: () => {} };
const event: NewEvent = { eventType: 't', payload: '{}', metadata: '{}' };

/** An in-memory store lease that counts what the host asks of it. */
function fakeBackend() {
  const calls = { acquire: 0, release: 0, releasingAppends: 0, appends: 0, perLease: new Map<bigint, number>() };
  let revision = 0n;
  let token = 0n;
  const backend: StreamLeaseBackend = {
    ttlMs: 5_000,
    acquire(streamId, _waitMs, tailEvents) {
      calls.acquire++;
      const own = ++token;
      const tail: RecordedEvent[] = revision === 0n ? [] : [record(streamId, revision)];
      const held: HeldLease = {
        token: own,
        reusable: true,
        ...(tailEvents === undefined ? {} : { tail }),
        append(_expected, events, options) {
          calls.appends++;
          calls.perLease.set(own, (calls.perLease.get(own) ?? 0) + 1);
          if (options?.release === true) calls.releasingAppends++;
          return events.map(() => record(streamId, ++revision));
        },
        release() {
          calls.release++;
        },
        renew: () => true,
      };
      return held;
    },
  };
  return { backend, calls };
}

function record(streamId: string, revision: bigint): RecordedEvent {
  return { sequence: revision, streamId, revision, eventType: 't', payload: '{}', metadata: '{}', recordedAt: 1n };
}

describe('leaseImports', () => {
  it(`hands one store lease to at most ${MAX_HANDOFFS} queued local turns, and the last append of a chain ends it`, async () => {
    const { backend, calls } = fakeBackend();
    const leases = leaseImports(backend, silent)['app:platform/stream-lease'];
    const writers = 2 * MAX_HANDOFFS + 1;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        const lease = await leases.acquire('s', 5_000);
        await lease!.append({ tag: 'any' }, [event]);
        lease![Symbol.dispose]();
      }),
    );
    expect(calls.appends).toBe(writers);
    // The fairness bound: no store lease serves more than MAX_HANDOFFS turns (4 + 4 + 1 here,
    // more leases only if a chain outlived MAX_CHAIN_MS), and hand-overs did happen.
    expect(Math.max(...calls.perLease.values())).toBeLessThanOrEqual(MAX_HANDOFFS);
    expect(calls.acquire).toBeGreaterThanOrEqual(3);
    expect(calls.acquire).toBeLessThan(writers);
    // Each lease ended once, by its chain's last append (no waiter was left): no release call.
    expect(calls.releasingAppends).toBe(calls.acquire);
    expect(calls.release).toBe(0);
  });

  it('answers reads of the leased stream from its tail, and drops the tail with the lease', async () => {
    const { backend } = fakeBackend();
    const tails = new StreamTails();
    const leases = leaseImports(backend, silent, tails)['app:platform/stream-lease'];
    const first = await leases.acquire('s', 1_000);
    await first!.append({ tag: 'any' }, [event]);
    first![Symbol.dispose]();
    expect(tails.read('s', { direction: 'backward', limit: 1 })).toBeUndefined();
    const second = await leases.acquire('s', 1_000);
    expect(tails.read('s', { direction: 'backward', limit: 5 })?.map((e) => e.revision)).toEqual([1n]);
    second![Symbol.dispose]();
    await Promise.resolve();
    expect(tails.read('s', { direction: 'backward', limit: 5 })).toBeUndefined();
  });
});
