import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FairShare, type Share } from './fair-share.ts';
import { AdmissionRefused } from './wait-queue.ts';

/** A run that goes on until `finish()`; `started` says whether it began. */
function gate() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const run = { started: false, finish, fn: () => ((run.started = true), done) };
  return run;
}

/** A client with a run going for 100 ms has a third of the recent time: not a light one (FairShare.share). */
const establish = () => vi.advanceTimersByTime(100);

/** Lets handed-over turns start (they begin from setImmediate) and settled runs release their slots. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('FairShare', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const make = (capacity = 4, onDelay?: (client: string, share: Share) => void) => new FairShare({ capacity: () => capacity, now: () => Date.now(), onDelay });

  it('never holds back a client alone, whatever it runs at once', async () => {
    const share = make();
    const runs = Array.from({ length: 20 }, () => gate());
    for (const r of runs) void share.run('a', r.fn);
    expect(runs.every((r) => r.started)).toBe(true);
    expect(share.stats).toEqual({ delayed: 0, waiting: 0, active: 1 });
    vi.advanceTimersByTime(10_000); // a long run alone is still alone
    const late = gate();
    void share.run('a', late.fn);
    expect(late.started).toBe(true);
  });

  it('with company, runs a client past its part of the instances later, in order, as its runs end', async () => {
    const delays: Share[] = [];
    const share = make(4, (_, s) => delays.push(s));
    const other = gate();
    void share.run('b', other.fn);
    establish();
    const runs = Array.from({ length: 4 }, () => gate());
    const done = runs.map((r) => share.run('a', r.fn));
    expect(runs.map((r) => r.started)).toEqual([true, true, false, false]);
    expect(delays[0]).toEqual({ runs: 2, time: 0.5, active: 2 });
    expect(share.stats.waiting).toBe(2);
    runs[0]!.finish();
    await settle();
    expect(runs.map((r) => r.started)).toEqual([true, true, true, false]);
    for (const r of runs) r.finish();
    other.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(done);
    expect(runs.every((r) => r.started)).toBe(true);
  });

  it('with company, holds back a client past its part of the time until its recent part falls back', async () => {
    const share = make(10);
    // Alone, `a` has a run going for a while: its part of the time goes towards 1.
    const long = gate();
    void share.run('a', long.fn);
    vi.advanceTimersByTime(1_000);
    long.finish();
    await settle();
    // `b` comes and has a run going for 100 ms (its part: 1 - e^-0.4 ≈ 0.33; `a`'s fell to ≈ 0.66).
    const other = gate();
    void share.run('b', other.fn);
    vi.advanceTimersByTime(100);
    // `a` waits until its part is back under a half: 250 ms × ln(0.66 / 0.5) ≈ 69 ms.
    const next = gate();
    void share.run('a', next.fn);
    expect(next.started).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(next.started).toBe(false);
    await vi.advanceTimersByTimeAsync(30);
    expect(next.started).toBe(true);
    // `b`, below its part, was never held back.
    expect(other.started).toBe(true);
  });

  it("gives a light client's unused part to the heavy one", async () => {
    const share = make(10);
    const long = gate();
    void share.run('a', long.fn);
    vi.advanceTimersByTime(1_000);
    // A health check from another address: one short run.
    const check = gate();
    void share.run('health', check.fn);
    vi.advanceTimersByTime(2);
    check.finish();
    await settle();
    // `a` (about 0.98 of the time) keeps its pace and every instance: the check took almost none.
    const runs = Array.from({ length: 9 }, () => gate());
    for (const r of runs) void share.run('a', r.fn);
    expect(runs.every((r) => r.started)).toBe(true);
    expect(share.share('a')).toMatchObject({ runs: 10, active: 2 });
  });

  it('never counts a client with a run going as light, however small the part the heavy one leaves it', async () => {
    const share = make(40, () => undefined);
    // Alone, `a` takes every instance.
    const heavy = Array.from({ length: 40 }, () => gate());
    for (const r of heavy) void share.run('a', r.fn);
    // Four users, each with one run going beside a's 40: a 44th of the time each, far below a
    // quarter of an equal part (1/5/4), which would make them light if a run going did not count.
    const users = ['u1', 'u2', 'u3', 'u4'].map((key) => {
      const run = gate();
      void share.run(key, run.fn);
      return run;
    });
    vi.advanceTimersByTime(1_000);
    expect(users.every((r) => r.started)).toBe(true);
    // `a` has its part, a fifth: of the instances (8), and of the time, which it is far past.
    expect(share.share('a')).toMatchObject({ runs: 8, active: 5 });
    for (const r of heavy.slice(0, 10)) r.finish();
    await settle();
    const more = gate();
    void share.run('a', more.fn);
    expect(more.started).toBe(false);
    // A user asking for a second run is within its part and starts at once.
    const second = gate();
    void share.run('u1', second.fn);
    expect(second.started).toBe(true);
  });

  it('shares the time among the runs going, so the parts add up to at most 1', async () => {
    const share = make(10, () => undefined);
    const a = gate();
    const b = gate();
    void share.run('a', a.fn);
    void share.run('b', b.fn);
    vi.advanceTimersByTime(2_000);
    // Each had half of the time, not all of it: a run of each may still start (0.5 ≤ 1/2).
    const a2 = gate();
    void share.run('a', a2.fn);
    expect(a2.started).toBe(true);
    // `a` now has two runs of the three: two thirds of the time from here on, past its half.
    vi.advanceTimersByTime(1_000);
    const a3 = gate();
    void share.run('a', a3.fn);
    expect(a3.started).toBe(false);
    const b2 = gate();
    void share.run('b', b2.fn);
    expect(b2.started).toBe(true);
  });

  it('forgets a client idle for a second, so the one left is alone again', async () => {
    const share = make(4);
    const b = gate();
    void share.run('b', b.fn);
    establish();
    b.finish();
    await settle();
    const runs = Array.from({ length: 3 }, () => gate());
    for (const r of runs) void share.run('a', r.fn);
    expect(runs.map((r) => r.started)).toEqual([true, true, false]);
    vi.advanceTimersByTime(1_000);
    runs[0]!.finish();
    await settle();
    expect(share.stats.active).toBe(1);
    const more = gate();
    void share.run('a', more.fn);
    expect(runs[2]!.started && more.started).toBe(true);
  });

  it('drops a waiting run whose client left, without taking its slot', async () => {
    const share = make(2);
    const b = gate();
    void share.run('b', b.fn);
    establish();
    const first = gate();
    void share.run('a', first.fn);
    const left = new AbortController();
    const waiting = gate();
    const refused = share.run('a', waiting.fn, left.signal);
    left.abort();
    await expect(refused).rejects.toEqual(new AdmissionRefused('departed'));
    expect(share.stats.waiting).toBe(0);
    first.finish();
    await settle();
    const next = gate();
    void share.run('a', next.fn);
    expect(waiting.started).toBe(false);
    expect(next.started).toBe(true);
  });

  it('gives a run that throws its slot back', async () => {
    const share = make(2);
    const b = gate();
    void share.run('b', b.fn);
    await expect(
      share.run('a', () => {
        throw new Error('trap');
      }),
    ).rejects.toThrow('trap');
    const next = gate();
    void share.run('a', next.fn);
    expect(next.started).toBe(true);
  });
});
