/**
 * The stream-lease conformance suite (wit/stream-lease.wit), run against every backend whose
 * leases exclude across connections (SQLite, PostgreSQL, Redis). It goes through the host's
 * import (host/app-platform/lease-imports.ts: in-process FIFO, then the store's lease), as a guest would.
 *
 * `factory()` opens a backend over empty storage; `openWithTtl(ms)` opens another one over the
 * same storage (another connection, as another host would) whose leases last `ms`: the
 * "stalled holder" whose turn must expire, and whose append must then be refused (fencing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamTails } from '../../host/leases/stream-tails.ts';
import { leaseImports } from '../../host/app-platform/lease-imports.ts';
import { StorageFailure } from '../../host/storage/errors.ts';
import type { NewEvent, StorageBackend } from '../../host/storage/types.ts';
import type { HeldLease, StreamLeaseBackend } from '../../host/leases/port.ts';

export interface LeaseContractOptions {
  factory: () => Promise<StorageBackend>;
  openWithTtl: (ttlMs: number) => Promise<StorageBackend>;
}

const silent = { log: () => {} };
const event = (n: number): NewEvent => ({ eventType: 'lease-test', payload: JSON.stringify({ n }), metadata: '{}' });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Imports = ReturnType<typeof leaseImports>['app:platform/stream-lease'];
type Lease = InstanceType<Imports['Lease']>;

/** The appends the store received through its leases, and whether it answers them asynchronously. */
interface AppendCount {
  appends: number;
  asynchronous: boolean;
}

/** `backend` with every lease's append counted. */
function countingAppends(backend: StreamLeaseBackend, count: AppendCount): StreamLeaseBackend {
  const counted = (held: HeldLease): HeldLease => ({
    ...held,
    token: held.token,
    append(expected, events, options) {
      count.appends++;
      const result = held.append(expected, events, options);
      if (result instanceof Promise) count.asynchronous = true;
      return result;
    },
    release: () => held.release(),
    renew: () => held.renew(),
  });
  return {
    ttlMs: backend.ttlMs,
    acquire(streamId, waitMs, tailEvents) {
      const held = backend.acquire(streamId, waitMs, tailEvents);
      return held instanceof Promise ? held.then((h) => h && counted(h)) : held && counted(held);
    },
  };
}

export function runLeaseContract(name: string, options: LeaseContractOptions): void {
  describe(`stream-lease contract: ${name}`, () => {
    const opened: StorageBackend[] = [];
    const held: Lease[] = [];
    async function open(ttlMs?: number): Promise<{ backend: StorageBackend; leases: Imports; count: AppendCount }> {
      const backend = ttlMs === undefined ? await options.factory() : await options.openWithTtl(ttlMs);
      opened.push(backend);
      const count: AppendCount = { appends: 0, asynchronous: false };
      const store = countingAppends(backend.leases, count);
      return { backend, count, leases: leaseImports(store, silent, new StreamTails(), backend.events)['app:platform/stream-lease'] };
    }
    async function take(leases: Imports, stream: string, waitMs: number): Promise<Lease | undefined> {
      const lease = await leases.acquire(stream, waitMs);
      if (lease) held.push(lease);
      return lease;
    }

    afterEach(async () => {
      for (const lease of held.splice(0)) lease[Symbol.dispose]();
      await sleep(20); // releases are sent in the background
      for (const backend of opened.splice(0).reverse()) await backend.close();
    });

    it('grants the turns of one host in arrival order (FIFO), one at a time', async () => {
      const { leases } = await open();
      const order: number[] = [];
      let inside = 0;
      await Promise.all(
        Array.from({ length: 6 }, async (_, n) => {
          await sleep(0);
          const lease = await take(leases, 'fifo', 5_000);
          expect(lease).toBeDefined();
          inside++;
          expect(inside).toBe(1);
          order.push(n);
          await sleep(5);
          await lease!.append({ tag: 'any' }, [event(n)]);
          inside--;
          lease![Symbol.dispose]();
        }),
      );
      expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('append-and-end: the next writer decides on the events handed on, the store gets every append in order, and each answer is committed', async () => {
      const { leases, backend, count } = await open();
      // Each writer reads the stream as its turn sees it and appends right after what it read.
      const answers = await Promise.all(
        Array.from({ length: 6 }, async (_, n) => {
          await sleep(0);
          const lease = (await take(leases, 'handed', 5_000))!;
          const head = (await lease.readNewest(1))[0]?.revision ?? 0n;
          const expected = head === 0n ? ({ tag: 'no-stream' } as const) : ({ tag: 'exact', val: head } as const);
          const answer = await lease.appendAndEnd(expected, [event(n)], 3);
          lease[Symbol.dispose]();
          return answer;
        }),
      );
      const stored = await backend.events.readStream('handed', { direction: 'forward', limit: 10 });
      expect(stored.map((e) => e.revision)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
      expect(stored.map((e) => JSON.parse(e.payload).n)).toEqual([0, 1, 2, 3, 4, 5]);
      const bySequence = new Map(stored.map((e) => [e.revision, e.sequence]));
      for (const answer of answers) {
        // The appended event first, then committed events before it, never a pending one.
        expect(answer[0]?.payload).toBeDefined();
        expect(answer.every((e) => e.sequence !== 0n && e.sequence === bySequence.get(e.revision))).toBe(true);
        expect(answer.map((e) => e.revision)).toEqual(answer.map((_, i) => answer[0]!.revision - BigInt(i)));
      }
      // Group commit: a store that answers asynchronously got the appends decided while one was
      // in flight as one append; a synchronous one (SQLite) confirms each before the next is decided.
      if (count.asynchronous) expect(count.appends).toBeLessThan(6);
      else expect(count.appends).toBe(6);
    });

    it('excludes another host until the holder drops its lease; tokens only grow', async () => {
      const first = await open();
      const other = await open(5_000);
      const a = await take(first.leases, 'excl', 1_000);
      expect(a).toBeDefined();
      const started = performance.now();
      expect(await take(other.leases, 'excl', 150)).toBeUndefined();
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      const waiting = take(other.leases, 'excl', 5_000);
      await sleep(50);
      await a!.append({ tag: 'no-stream' }, [event(1)]);
      a![Symbol.dispose]();
      const b = await waiting;
      expect(b).toBeDefined();
      expect(b!.token()).toBeGreaterThan(a!.token());
      const recorded = await b!.append({ tag: 'exact', val: 1n }, [event(2)]);
      expect(recorded.map((e) => e.revision)).toEqual([2n]);
    });

    it('checks the expected revision under the lease (the safety net stays)', async () => {
      const { leases, backend } = await open();
      await backend.events.append('checked', { tag: 'any' }, [event(1)]);
      const lease = await take(leases, 'checked', 1_000);
      let error: unknown;
      try {
        await lease!.append({ tag: 'no-stream' }, [event(2)]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StorageFailure);
      expect((error as StorageFailure).payload.tag).toBe('conflict');
    });

    it('expires the lease of a holder whose host stopped renewing it: the next writer proceeds and the stale append is refused', async () => {
      const next = await open();
      const stalled = await open(300);
      // Taken from the store directly, as by a host that then froze or died: nobody renews it.
      const stale = await stalled.backend.leases.acquire('expiry', 1_000);
      expect(stale).toBeDefined();
      const started = performance.now();
      const fresh = await take(next.leases, 'expiry', 5_000);
      const waited = performance.now() - started;
      expect(fresh).toBeDefined();
      expect(waited).toBeGreaterThanOrEqual(200); // the stale lease was taken just before `started`
      expect(waited).toBeLessThan(3_000);
      expect(fresh!.token()).toBeGreaterThan(stale!.token);

      let refused: unknown;
      try {
        await stale!.append({ tag: 'any' }, [event(1)]);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(StorageFailure);
      expect((refused as StorageFailure).payload.tag).toBe('unavailable');
      expect(await stale!.renew()).toBe(false);
      await stale!.release();
      const recorded = await fresh!.append({ tag: 'no-stream' }, [event(2)]);
      expect(recorded.map((e) => e.revision)).toEqual([1n]);
      expect(await next.backend.events.streamRevision('expiry')).toBe(1n);
    });

    it("renews a live holder's lease: held for several lease times, it still excludes others and its append commits", async () => {
      const other = await open();
      const holder = await open(1_000);
      const lease = await take(holder.leases, 'renewed', 1_000);
      expect(lease).toBeDefined();
      await sleep(3_000); // three lease times: only the host's renewals keep the turn
      expect(await take(other.leases, 'renewed', 100)).toBeUndefined();
      const recorded = await lease!.append({ tag: 'no-stream' }, [event(1)]);
      expect(recorded.map((e) => e.revision)).toEqual([1n]);
      lease![Symbol.dispose]();
      const after = await take(other.leases, 'renewed', 5_000);
      expect(after).toBeDefined();
      expect(after!.token()).toBeGreaterThan(lease!.token());
    });

    it("ends the store lease with the turn's append when no local writer waits; a second append takes it again", async () => {
      const first = await open();
      const other = await open(5_000);
      const a = await take(first.leases, 'folded', 1_000);
      expect(a).toBeDefined();
      let bTaken = false;
      const waiting = take(other.leases, 'folded', 5_000).then((lease) => {
        bTaken = true;
        return lease;
      });
      await sleep(50);
      expect(bTaken).toBe(false);
      await a!.append({ tag: 'no-stream' }, [event(1)]);
      const b = await waiting; // granted while `a` is not yet dropped: the append released it
      expect(b).toBeDefined();
      expect(b!.token()).toBeGreaterThan(a!.token());
      await b!.append({ tag: 'exact', val: 1n }, [event(2)]);
      // `a` appends again in its turn: it takes the store lease again, and the revision check stays.
      let error: unknown;
      try {
        await a!.append({ tag: 'exact', val: 1n }, [event(3)]);
      } catch (e) {
        error = e;
      }
      expect((error as StorageFailure).payload.tag).toBe('conflict');
      b![Symbol.dispose]();
      expect(await first.backend.events.streamRevision('folded')).toBe(2n);
    });

    it('answers none when the turn does not come within the wait', async () => {
      const first = await open();
      const holder = await take(first.leases, 'busy', 1_000);
      expect(holder).toBeDefined();
      const started = performance.now();
      expect(await take(first.leases, 'busy', 100)).toBeUndefined();
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    });
  });
}
