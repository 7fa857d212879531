/**
 * The budget's bucket: it starts full, refills at its rate up to its burst, goes into debt when a
 * token is taken from it empty and says how long the debt takes to repay; one per client, forgotten
 * once full again and unused.
 */
import { describe, expect, it } from 'vitest';
import { ClientBuckets, DebtBucket } from './debt-bucket.ts';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('DebtBucket', () => {
  it('takes a burst at once, then goes into debt, repaid at the rate', () => {
    const time = clock();
    const bucket = new DebtBucket(100, 100, time.now);
    for (let i = 0; i < 100; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    expect(bucket.msUntil(0)).toBeCloseTo(10);
    // Pieces taken while in debt deepen it: 50 more take half a second more to repay.
    for (let i = 0; i < 50; i++) expect(bucket.take()).toBe(false);
    expect(bucket.msUntil(0)).toBeCloseTo(510);
    expect(bucket.msUntil(25)).toBeCloseTo(760);
    time.advance(510);
    expect(bucket.msUntil(0)).toBe(0);
    // Repaid to zero: the next piece needs a token of its own.
    expect(bucket.take()).toBe(false);
    time.advance(20);
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });

  it('refills at the rate, never past the burst', () => {
    const time = clock();
    const bucket = new DebtBucket(1000, 10, time.now);
    for (let i = 0; i < 10; i++) bucket.take();
    expect(bucket.full).toBe(false);
    time.advance(5);
    for (let i = 0; i < 5; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    time.advance(60_000);
    expect(bucket.full).toBe(true);
    for (let i = 0; i < 10; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });

  it('a reader that waits out each debt takes at most the burst plus the rate times the span', () => {
    const time = clock();
    const bucket = new DebtBucket(4096, 4096, time.now);
    let taken = 0;
    while (time.now() < 10_000) {
      taken++;
      // A piece beyond the budget is still read (a debt); the reader then waits until it is repaid.
      if (!bucket.take()) time.advance(Math.max(1, Math.ceil(bucket.msUntil(0))));
    }
    expect(taken).toBeLessThanOrEqual(4096 + 4096 * 10 + 10_000);
    expect(taken).toBeGreaterThan(4096 * 10);
  });
});

describe('ClientBuckets', () => {
  it('gives a client one bucket and forgets it once full again and unused', () => {
    const time = clock();
    const buckets = new ClientBuckets(10, 10, time.now);
    const debtor = buckets.of('192.0.2.1');
    expect(buckets.of('192.0.2.1')).toBe(debtor);
    expect(debtor.charge(30)).toBe(false);
    const used = buckets.of('192.0.2.2');
    used.users++;
    buckets.of('192.0.2.3');
    expect(buckets.peek('192.0.2.4')).toBeUndefined();
    time.advance(10_000);
    // Swept on the next use: the debtor still owes 1 s, the used one is kept, the full one goes.
    buckets.of('192.0.2.1');
    expect(buckets.size).toBe(2);
    expect(buckets.peek('192.0.2.3')).toBeUndefined();
  });
});
