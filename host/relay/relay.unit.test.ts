/** The relay's bookkeeping over fake sinks, a scripted poller and a real local pub/sub backend. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostLogger } from '../log.ts';
import { localPubSub } from '../pubsub/local.ts';
import type { PubSubBackend } from '../pubsub/types.ts';
import type { RelayInstruction } from './headers.ts';
import type { PollAnswer } from './poll.ts';
import { MAX_BUFFERED_BYTES, StreamRelay, type RelaySink, type RelayTimings } from './relay.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CHANNEL = 'test-channel';
const PATH = '/stream';

class FakeSink implements RelaySink {
  readonly text: string[] = [];
  readonly keepalive = encoder.encode(': keepalive\n\n');
  closed = false;
  buffered = 0;
  #onClose: Array<() => void> = [];
  write(bytes: Uint8Array): void {
    this.text.push(decoder.decode(bytes));
  }
  onClose(listener: () => void): void {
    if (this.closed) return listener();
    this.#onClose.push(listener);
  }
  end(): void {
    this.disconnect();
  }
  destroy(): void {
    this.disconnect();
  }
  disconnect(): void {
    if (this.closed) return;
    this.closed = true;
    for (const l of this.#onClose.splice(0)) l();
  }
}

/** A poller whose answers the test releases one by one; the "store" is a number. */
class ScriptedPoller {
  head = 0;
  readonly calls: number[] = [];
  readonly #pending: Array<() => void> = [];
  gated = false;
  readonly poll = (_path: string, after: number): Promise<PollAnswer> => {
    this.calls.push(after);
    const answer = (): PollAnswer => {
      const now = this.head;
      return now > after ? { bytes: encoder.encode(`id: ${now}\n\n`), after: now } : { bytes: new Uint8Array(0), after };
    };
    if (!this.gated) return Promise.resolve(answer());
    // The store is read when the poll is released, as a slow guest would.
    return new Promise((resolve) => this.#pending.push(() => resolve(answer())));
  };
  release(): void {
    this.#pending.shift()?.();
  }
  get waiting(): number {
    return this.#pending.length;
  }
}

const silent: HostLogger = { log: () => undefined };
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const pubsubInstruction = (after: number): RelayInstruction => ({ channel: CHANNEL, mode: 'pubsub', intervalMs: 500, after });

function relayWith(poller: ScriptedPoller, pubsub: PubSubBackend = localPubSub(), timings: Partial<RelayTimings> = {}, logger = silent) {
  const relay = new StreamRelay({ poll: poller.poll, pubsub, logger, timings });
  return { relay, pubsub };
}

const idsOf = (sink: FakeSink) =>
  sink.text
    .join('')
    .match(/id: \d+/g)
    ?.map((s) => Number(s.slice(4))) ?? [];

describe('StreamRelay', () => {
  it('answers a wake with one poll for every client, whatever their positions', async () => {
    const poller = new ScriptedPoller();
    const { relay, pubsub } = relayWith(poller);
    const atZero = Array.from({ length: 50 }, () => new FakeSink());
    const atThree = Array.from({ length: 20 }, () => new FakeSink());
    for (const sink of atZero) relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    for (const sink of atThree) relay.adopt(sink, PATH, pubsubInstruction(3), relay.mark());
    await settle();
    expect(relay.stats).toMatchObject({ clients: 70, feeds: 1, channels: 1 });
    const before = poller.calls.length;

    poller.head = 5;
    pubsub.publish(CHANNEL, 'wake');
    // (70 clients: the poll may wait a few ms for the relay's write rate.)
    await expect.poll(() => idsOf(atZero[0]!)).toEqual([5]);
    // One poll, at the oldest position: its answer is the state every client is behind.
    expect(poller.calls.slice(before)).toEqual([0]);
    for (const sink of [...atZero, ...atThree]) expect(idsOf(sink)).toEqual([5]);
    relay.close();
  });

  it('keeps to its write rate: many clients get the newest state a few times a second, whatever the wakes', async () => {
    const poller = new ScriptedPoller();
    // 100 clients at 1,000 writes/s: a poll (and a frame to each) every 100 ms at most.
    const { relay, pubsub } = relayWith(poller, localPubSub(), { writesPerSecond: 1_000 });
    const sinks = Array.from({ length: 100 }, () => new FakeSink());
    for (const sink of sinks) relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await settle();
    const before = poller.calls.length;
    const started = performance.now();
    for (let head = 1; head <= 100; head++) {
      poller.head = head;
      pubsub.publish(CHANNEL, 'wake');
      await new Promise((resolve) => setTimeout(resolve, 4));
    }
    const elapsed = performance.now() - started;
    // The last wake is never lost: everyone ends on the newest state, in order, never repeated.
    for (const sink of sinks) await expect.poll(() => idsOf(sink).at(-1)).toBe(100);
    const polls = poller.calls.length - before;
    expect(polls).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
    expect(polls).toBeGreaterThanOrEqual(2);
    for (const sink of sinks) {
      const ids = idsOf(sink);
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
      expect(ids.length).toBe(polls);
    }
    relay.close();
  });

  it('gives a few clients every change at once', async () => {
    const poller = new ScriptedPoller();
    const { relay, pubsub } = relayWith(poller, localPubSub(), { writesPerSecond: 1_000 });
    const sinks = [new FakeSink(), new FakeSink()];
    for (const sink of sinks) relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await settle();
    for (let head = 1; head <= 10; head++) {
      poller.head = head;
      pubsub.publish(CHANNEL, 'wake');
      await settle();
    }
    for (const sink of sinks) expect(idsOf(sink)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    relay.close();
  });

  it('gives a client that joins behind the newest answer that answer, without a poll', async () => {
    const poller = new ScriptedPoller();
    const { relay, pubsub } = relayWith(poller);
    relay.adopt(new FakeSink(), PATH, pubsubInstruction(0), relay.mark());
    await settle();
    poller.head = 4;
    pubsub.publish(CHANNEL, 'wake');
    await settle();
    const calls = poller.calls.length;
    const late = new FakeSink();
    relay.adopt(late, PATH, pubsubInstruction(2), relay.mark());
    await settle();
    expect(idsOf(late)).toEqual([4]);
    expect(poller.calls.length).toBe(calls);
    relay.close();
  });

  it('keeps only the newest frame for a client whose connection has no room, and writes it once there is', async () => {
    const poller = new ScriptedPoller();
    const { relay, pubsub } = relayWith(poller, localPubSub(), { flushMs: 10 });
    const slow = new FakeSink();
    const fast = new FakeSink();
    relay.adopt(slow, PATH, pubsubInstruction(0), relay.mark());
    relay.adopt(fast, PATH, pubsubInstruction(0), relay.mark());
    await settle();
    slow.buffered = 500; // the kernel took none of it: the host holds bytes for this client
    for (const head of [1, 2, 3]) {
      poller.head = head;
      pubsub.publish(CHANNEL, 'wake');
      await settle();
    }
    expect(idsOf(fast)).toEqual([1, 2, 3]);
    expect(idsOf(slow)).toEqual([]);
    expect(relay.stats).toMatchObject({ coalesced: 2, heldBytes: 500 + 'id: 3\n\n'.length });
    slow.buffered = 0;
    await expect.poll(() => idsOf(slow)).toEqual([3]);
    expect(relay.stats.heldBytes).toBe(0);
    relay.close();
  });

  it('cuts a client whose connection takes nothing for the stall limit, or holds more than the bound', async () => {
    const poller = new ScriptedPoller();
    const codes: string[] = [];
    const logger: HostLogger = { log: (_level, _msg, fields) => void codes.push(String(fields?.['code'])) };
    const { relay, pubsub } = relayWith(poller, localPubSub(), { flushMs: 10, stallMs: 100 }, logger);
    const stuck = new FakeSink();
    const huge = new FakeSink();
    const fine = new FakeSink();
    for (const sink of [stuck, huge, fine]) relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await settle();
    stuck.buffered = 10;
    huge.buffered = MAX_BUFFERED_BYTES + 1;
    poller.head = 1;
    pubsub.publish(CHANNEL, 'wake');
    await settle();
    expect(huge.closed).toBe(true);
    await expect.poll(() => stuck.closed).toBe(true);
    expect(fine.closed).toBe(false);
    expect(relay.stats).toMatchObject({ clients: 1, cut: 2 });
    // Logged once for both (at most one line per interval), counted one by one.
    expect(codes.filter((c) => c === 'relay_client_too_slow')).toHaveLength(1);
    relay.close();
  });

  it('never sends a stream backwards when wakes race with a slow poll', async () => {
    const poller = new ScriptedPoller();
    const { relay, pubsub } = relayWith(poller);
    const sink = new FakeSink();
    relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await settle();
    poller.gated = true;
    const before = poller.calls.length;

    poller.head = 1;
    pubsub.publish(CHANNEL, 'wake 1');
    poller.head = 2;
    pubsub.publish(CHANNEL, 'wake 2');
    pubsub.publish(CHANNEL, 'wake 2 again');
    // One poll in flight for the position, however many wakes.
    expect(poller.calls.length - before).toBe(1);
    poller.release();
    await settle();
    // Then exactly one more, from the position the first answer moved the client to.
    expect(poller.calls.slice(before)).toEqual([0, 2]);
    poller.head = 3;
    poller.release();
    await settle();
    expect(idsOf(sink)).toEqual([2, 3]);
    relay.close();
  });

  it('ignores an answer older than the position it polled', async () => {
    const pubsub = localPubSub();
    const lying = async (): Promise<PollAnswer> => ({ bytes: encoder.encode('id: 2\n\n'), after: 2 });
    const relay = new StreamRelay({ poll: lying, pubsub, logger: silent });
    const sink = new FakeSink();
    relay.adopt(sink, PATH, pubsubInstruction(7), relay.mark());
    pubsub.publish(CHANNEL, 'wake');
    await settle();
    expect(sink.text).toEqual([]);
    relay.close();
  });

  it('retries a failed poll, so the wake that caused it is not lost', async () => {
    const poller = new ScriptedPoller();
    let failures = 1;
    const flaky = (path: string, after: number) => (failures-- > 0 ? Promise.reject(new Error('trap')) : poller.poll(path, after));
    const codes: string[] = [];
    const pubsub = localPubSub();
    const relay = new StreamRelay({ poll: flaky, pubsub, logger: { log: (_l, _m, f) => void codes.push(String(f?.['code'])) }, timings: { retryPollMs: 30 } });
    const sink = new FakeSink();
    relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await settle(); // the first poll (after subscribing) fails
    poller.head = 2;
    await expect.poll(() => idsOf(sink)).toEqual([2]);
    expect(codes).toContain('relay_poll_failed');
    relay.close();
  });

  it('polls a client that joined after a wake its opening read may have missed', async () => {
    const poller = new ScriptedPoller();
    const { relay, pubsub } = relayWith(poller);
    relay.adopt(new FakeSink(), PATH, pubsubInstruction(0), relay.mark());
    await settle();
    const mark = relay.mark(); // the late client's exchange starts, its guest reads position 0...
    poller.head = 1;
    pubsub.publish(CHANNEL, 'wake'); // ...a command lands before it joins
    await settle();
    const late = new FakeSink();
    relay.adopt(late, PATH, pubsubInstruction(0), mark);
    await settle();
    expect(idsOf(late)).toEqual([1]);
    relay.close();
  });

  it('frees a disconnected client at once and stops listening when its channel is empty', async () => {
    const poller = new ScriptedPoller();
    const local = localPubSub();
    let listening = 0;
    const counting: PubSubBackend = {
      ...local,
      listen(channel, onMessage, onInterrupted) {
        listening++;
        const stop = local.listen(channel, onMessage, onInterrupted);
        return () => {
          listening--;
          stop();
        };
      },
    };
    const { relay } = relayWith(poller, counting);
    const sinks = [new FakeSink(), new FakeSink(), new FakeSink()];
    for (const sink of sinks) relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    expect(listening).toBe(1); // one subscription per channel, not per client
    sinks[0]!.disconnect();
    expect(relay.stats.clients).toBe(2);
    sinks[1]!.disconnect();
    sinks[2]!.disconnect();
    expect(relay.stats).toMatchObject({ clients: 0, feeds: 0, channels: 0 });
    expect(listening).toBe(0);
    relay.close();
  });

  it('writes a keepalive comment to a client after the silence limit', async () => {
    const poller = new ScriptedPoller();
    const { relay } = relayWith(poller, localPubSub(), { keepaliveMs: 40 });
    const sink = new FakeSink();
    relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await expect.poll(() => sink.text).toContain(': keepalive\n\n');
    relay.close();
    expect(sink.closed).toBe(true);
  });

  it('re-reads on an interval while pub/sub is interrupted, and returns to push when it is back', async () => {
    const poller = new ScriptedPoller();
    const local = localPubSub();
    let interrupt: (() => void) | undefined;
    let available = true;
    const flaky: PubSubBackend = {
      ...local,
      get available() {
        return available;
      },
      listen(channel, onMessage, onInterrupted) {
        interrupt = onInterrupted;
        return local.listen(channel, onMessage);
      },
    };
    const codes: string[] = [];
    const logger: HostLogger = { log: (_level, _msg, fields) => void codes.push(String(fields?.['code'])) };
    const { relay } = relayWith(poller, flaky, { fallbackPollMs: 20, resubscribeMs: 60 }, logger);
    const sink = new FakeSink();
    relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark());
    await settle();

    available = false;
    interrupt!();
    expect(codes).toContain('realtime_subscribe_failed');
    poller.head = 4; // committed, but no wake-up can arrive
    await expect.poll(() => idsOf(sink)).toEqual([4]);

    available = true;
    await expect.poll(() => codes).toContain('realtime_resubscribed');
    poller.head = 5;
    local.publish(CHANNEL, 'wake');
    await settle();
    expect(idsOf(sink)).toEqual([4, 5]);
    expect(codes.filter((c) => c === 'realtime_subscribe_failed')).toHaveLength(1);
    relay.close();
  });
});

describe("StreamRelay: each client's share of the writes", () => {
  /** A relay on a fake clock: `run(ms)` advances it, with the polls' answers settling on the way. */
  function fakeClockRelay(writesPerSecond: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const poller = new ScriptedPoller();
    const pubsub = localPubSub();
    const relay = new StreamRelay({ poll: poller.poll, pubsub, logger: silent, timings: { writesPerSecond }, now: () => Date.now() });
    const join = (key: string, count: number) =>
      Array.from({ length: count }, () => {
        const sink = new FakeSink();
        relay.adopt(sink, PATH, pubsubInstruction(0), relay.mark(), key);
        return sink;
      });
    /** A change every `everyMs` for `ms`. */
    const writes = async (ms: number, everyMs: number) => {
      for (let t = 0; t < ms; t += everyMs) {
        poller.head++;
        pubsub.publish(CHANNEL, 'wake');
        await vi.advanceTimersByTimeAsync(everyMs);
      }
    };
    return { poller, relay, join, writes };
  }
  const framesOf = (sinks: FakeSink[]) => sinks.reduce((n, sink) => n + idsOf(sink).length, 0);
  const ascending = (ids: number[]) => ids.every((id, i) => i === 0 || id > ids[i - 1]!);

  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a client with many streams to its share while a client with one sees every change at once', async () => {
    // 1,000 writes/s: a client gets 125 frames/s (an eighth) whatever its streams.
    const { poller, relay, join, writes } = fakeClockRelay(1_000);
    const heavy = join('10.0.0.2', 64);
    const light = join('10.0.0.3', 1);
    await vi.advanceTimersByTimeAsync(10);
    await writes(3_000, 100); // 30 changes, one every 100 ms
    expect(idsOf(light[0]!)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // 64 streams × 30 changes would be 1,920 frames: 3 s of its share and one bucket at most.
    expect(framesOf(heavy)).toBeLessThanOrEqual(125 * 3 + 32);
    expect(relay.stats.deferred).toBeGreaterThan(0);
    // Then every stream gets the newest state, never a frame backwards, none starved on the way.
    await vi.advanceTimersByTimeAsync(2_000);
    for (const sink of heavy) {
      const ids = idsOf(sink);
      expect(ids.at(-1)).toBe(poller.head);
      expect(ascending(ids)).toBe(true);
      expect(ids.length).toBeGreaterThanOrEqual(3);
    }
    relay.close();
  });

  it("does not poll the guest for a client's many streams faster than its share can take the answers", async () => {
    const { poller, relay, join, writes } = fakeClockRelay(1_000);
    const heavy = join('10.0.0.2', 64);
    await vi.advanceTimersByTimeAsync(10);
    const before = poller.calls.length;
    await writes(2_000, 5); // 400 changes
    // Its bucket (31 frames) refills every 250 ms: a poll each time, not one per 64 ms (the overall pacing).
    expect(poller.calls.length - before).toBeLessThanOrEqual(10);
    await vi.advanceTimersByTimeAsync(2_000);
    for (const sink of heavy) expect(idsOf(sink).at(-1)).toBe(poller.head);
    expect(framesOf(heavy)).toBeLessThanOrEqual(125 * 4 + 32);
    relay.close();
  });

  it('splits the writes among the clients holding streams, each with its own bucket', async () => {
    const { relay, join, writes } = fakeClockRelay(1_000);
    const a = join('10.0.0.2', 40);
    const b = join('2001:db8::1', 40);
    await vi.advanceTimersByTimeAsync(10);
    await writes(2_000, 20);
    // Both get the same share, neither more.
    expect(Math.abs(framesOf(a) - framesOf(b))).toBeLessThanOrEqual(40);
    for (const sinks of [a, b]) expect(framesOf(sinks)).toBeLessThanOrEqual(125 * 2 + 32);
    relay.close();
  });

  it('never writes an older pending frame after a newer one', async () => {
    const { poller, relay, join, writes } = fakeClockRelay(1_000);
    const [slow] = join('10.0.0.2', 1);
    await vi.advanceTimersByTimeAsync(10);
    slow!.buffered = 100;
    await writes(10, 10); // pending: 1
    slow!.buffered = 0;
    await writes(10, 10); // room again before the tick: 2 is written, 1 is dropped
    await vi.advanceTimersByTimeAsync(500);
    expect(idsOf(slow!)).toEqual([2]);
    expect(poller.head).toBe(2);
    relay.close();
  });
});
