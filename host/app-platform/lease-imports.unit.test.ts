import { describe, expect, it } from 'vitest';
import { StorageFailure } from '../platform-answer.ts';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../storage/types.ts';
import type { HeldLease, StreamLeaseBackend } from '../leases/port.ts';
import { MAX_HANDOFFS } from '../leases/hold.ts';
import { leaseImports } from './lease-imports.ts';
import { PENDING, StreamTails } from '../leases/stream-tails.ts';

const silent = { log: () => {} };
const event: NewEvent = { eventType: 't', payload: '{}', metadata: '{}' };
/** The store's reads, which these tests never reach (the tail answers). */
const noStore = {
  readStream: (): never => {
    throw new Error('read the store');
  },
};

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

/** A store lease whose appends wait until the test settles (or fails) them, in the order they were sent. */
function gatedBackend() {
  let revision = 0n;
  let token = 0n;
  const sent: Array<{ events: NewEvent[]; settle(): void; fail(): void }> = [];
  const matches = (expected: ExpectedRevision): boolean =>
    expected.tag === 'any' || (expected.tag === 'exact' ? expected.val === revision : expected.tag === 'no-stream' ? revision === 0n : revision > 0n);
  const backend: StreamLeaseBackend = {
    ttlMs: 5_000,
    acquire(streamId) {
      const held: HeldLease = {
        token: ++token,
        reusable: true,
        tail: revision === 0n ? [] : [record(streamId, revision)],
        append(expected, events) {
          return new Promise((resolve, reject) => {
            sent.push({
              events,
              settle: () => (matches(expected) ? resolve(events.map(() => record(streamId, ++revision))) : reject(StorageFailure.conflict(streamId, expected, revision))),
              fail: () => reject(StorageFailure.unavailable('the store went away')),
            });
          });
        },
        release() {},
        renew: () => true,
      };
      return held;
    },
  };
  return { backend, sent };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function record(streamId: string, revision: bigint): RecordedEvent {
  return { sequence: revision, streamId, revision, eventType: 't', payload: '{}', metadata: '{}', recordedAt: 1n };
}

describe('leaseImports', () => {
  it(`hands one store lease to at most ${MAX_HANDOFFS} queued local turns, and the last append of a chain ends it`, async () => {
    const { backend, calls } = fakeBackend();
    const leases = leaseImports(backend, silent, new StreamTails(), noStore)['app:platform/stream-lease'];
    const writers = 2 * MAX_HANDOFFS + 1;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        const lease = await leases.acquire('s', 5_000);
        await lease!.append({ tag: 'any' }, [event]);
        lease![Symbol.dispose]();
      }),
    );
    expect(calls.appends).toBe(writers);
    // The fairness bound: no store lease serves more than MAX_HANDOFFS turns (8 + 8 + 1 here,
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
    const leases = leaseImports(backend, silent, tails, noStore)['app:platform/stream-lease'];
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

  it('append-and-end hands the turn on before its append is confirmed; the next append goes out only after it', async () => {
    const { backend, sent } = gatedBackend();
    const tails = new StreamTails();
    const leases = leaseImports(backend, silent, tails, noStore)['app:platform/stream-lease'];
    const first = (await leases.acquire('s', 1_000))!;
    const secondTurn = leases.acquire('s', 1_000);
    const firstDone = first.appendAndEnd({ tag: 'no-stream' }, [event], 5);
    const second = (await secondTurn)!; // granted while the first append is still out
    expect(sent).toHaveLength(1);
    const seen = await second.readNewest(5);
    expect(seen.map((e) => [e.revision, e.sequence])).toEqual([[1n, PENDING]]);
    // Readers outside the turn never see a pending event (nothing committed: the store answers).
    expect(tails.read('s', { direction: 'backward', limit: 5 })).toBeUndefined();
    const secondDone = second.appendAndEnd({ tag: 'exact', val: 1n }, [event], 5);
    await tick();
    expect(sent).toHaveLength(1); // decided on the pending event: waits for its confirmation
    sent[0]!.settle();
    expect((await firstDone).map((e) => [e.revision, e.sequence])).toEqual([[1n, 1n]]);
    await tick();
    expect(sent).toHaveLength(2);
    sent[1]!.settle();
    // The answer carries the event it read pending, now committed.
    expect((await secondDone).map((e) => [e.revision, e.sequence])).toEqual([
      [2n, 2n],
      [1n, 1n],
    ]);
    second[Symbol.dispose]();
    first[Symbol.dispose]();
  });

  it('sends the turns handed on behind an unconfirmed append as one append (group commit)', async () => {
    const { backend, sent } = gatedBackend();
    const leases = leaseImports(backend, silent, new StreamTails(), noStore)['app:platform/stream-lease'];
    const first = (await leases.acquire('s', 1_000))!;
    const later = [leases.acquire('s', 1_000), leases.acquire('s', 1_000), leases.acquire('s', 1_000)];
    const answers = [first.appendAndEnd({ tag: 'no-stream' }, [event], 5)];
    for (const [i, turn] of later.entries()) {
      const lease = (await turn)!;
      // Each decides on every event before it, still pending.
      expect((await lease.readNewest(5)).map((e) => e.sequence)).toEqual(Array(i + 1).fill(PENDING));
      answers.push(lease.appendAndEnd({ tag: 'exact', val: BigInt(i + 1) }, [event], 5));
    }
    expect(sent).toHaveLength(1);
    sent[0]!.settle();
    await tick();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.events).toHaveLength(3); // the three queued appends, in one round trip
    sent[1]!.settle();
    const committed = await Promise.all(answers);
    expect(committed.map((events) => events[0]?.revision)).toEqual([1n, 2n, 3n, 4n]);
    expect(committed[3]!.map((e) => e.sequence)).toEqual([4n, 3n, 2n, 1n]);
  });

  it('refuses the append decided on a handed-on append that failed, without sending it', async () => {
    const { backend, sent } = gatedBackend();
    const leases = leaseImports(backend, silent, new StreamTails(), noStore)['app:platform/stream-lease'];
    const first = (await leases.acquire('s', 1_000))!;
    const secondTurn = leases.acquire('s', 1_000);
    const firstDone = first.appendAndEnd({ tag: 'no-stream' }, [event], 5);
    const second = (await secondTurn)!;
    expect((await second.readNewest(1))[0]?.sequence).toBe(PENDING);
    const secondDone = second.appendAndEnd({ tag: 'exact', val: 1n }, [event], 5);
    sent[0]!.fail();
    await expect(firstDone).rejects.toMatchObject({ code: 'unavailable' });
    await expect(secondDone).rejects.toMatchObject({ code: 'conflict' });
    expect(sent).toHaveLength(1);
    second[Symbol.dispose]();
    first[Symbol.dispose]();
  });

  it('takes no call on a lease after append-and-end', async () => {
    const { backend, sent } = gatedBackend();
    const leases = leaseImports(backend, silent, new StreamTails(), noStore)['app:platform/stream-lease'];
    const lease = (await leases.acquire('s', 1_000))!;
    const done = lease.appendAndEnd({ tag: 'no-stream' }, [event], 5);
    sent[0]!.settle();
    await done;
    expect(() => lease.append({ tag: 'any' }, [event])).toThrow(expect.objectContaining({ code: 'unavailable' }));
    expect(() => lease.readNewest(5)).toThrow(expect.objectContaining({ code: 'unavailable' }));
    lease[Symbol.dispose]();
  });
});
