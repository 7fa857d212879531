/**
 * The piece budget: a token bucket that starts full, refills at its rate up to its burst, goes into
 * debt when a piece finds it empty and says how long the debt takes to repay; one bucket per client
 * key (IPv6 per /64), kept while a body uses it, forgotten once full again.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { NodeRequest } from '../http/exchange.ts';
import { ClientPieceRate, PieceBucket } from './piece-rate.ts';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const request = (remoteAddress: string | undefined) => Object.assign(new EventEmitter(), { httpVersionMajor: 1, socket: { remoteAddress } }) as unknown as NodeRequest;
const peer = (req: NodeRequest) => (req.socket as unknown as { remoteAddress?: string }).remoteAddress;

describe('PieceBucket', () => {
  it('takes a burst at once, then goes into debt, repaid at the rate', () => {
    const time = clock();
    const bucket = new PieceBucket(100, 100, time.now);
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
    const bucket = new PieceBucket(1000, 10, time.now);
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
    const bucket = new PieceBucket(4096, 4096, time.now);
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

describe('ClientPieceRate', () => {
  it('gives one client one bucket, shared by its requests; other clients their own', () => {
    const time = clock();
    const rate = new ClientPieceRate(10, peer, { now: time.now });
    const a1 = rate.open(request('192.0.2.1'))!;
    const a2 = rate.open(request('192.0.2.1'))!;
    const b = rate.open(request('192.0.2.2'))!;
    expect(a1.bucket).toBe(a2.bucket);
    expect(b.bucket).not.toBe(a1.bucket);
    expect(a1.client).toBe('192.0.2.1');
    for (let i = 0; i < 10; i++) expect((i % 2 ? a1 : a2).bucket.take()).toBe(true);
    expect(a2.bucket.take()).toBe(false);
    expect(b.bucket.take()).toBe(true);
  });

  it('keys IPv6 clients per /64 and IPv4-mapped ones as IPv4', () => {
    const rate = new ClientPieceRate(10, peer);
    const one = rate.open(request('2001:db8:1:2::1'))!;
    expect(rate.open(request('2001:db8:1:2:ffff::9'))!.bucket).toBe(one.bucket);
    expect(one.client).toBe('2001:db8:1:2::/64');
    expect(rate.open(request('::ffff:192.0.2.7'))!.client).toBe('192.0.2.7');
  });

  it("tells a new connection's peer what it owes, a trusted proxy nothing", () => {
    const time = clock();
    const rate = new ClientPieceRate(10, peer, { now: time.now, isProxy: (address) => address === '192.0.2.9' });
    expect(rate.connectionDebtMs('192.0.2.1')).toBe(0);
    for (const address of ['192.0.2.1', '192.0.2.9']) {
      const { bucket } = rate.open(request(address))!;
      for (let i = 0; i < 30; i++) bucket.take();
    }
    expect(rate.connectionDebtMs('::ffff:192.0.2.1')).toBeCloseTo(2_000);
    expect(rate.connectionDebtMs('192.0.2.9')).toBe(0);
    time.advance(2_000);
    expect(rate.connectionDebtMs('192.0.2.1')).toBe(0);
  });

  it('has no bucket for a request whose connection is gone', () => {
    expect(new ClientPieceRate(10, peer).open(request(undefined))).toBeUndefined();
  });

  it('forgets a bucket once it is full and unused, keeps a client in debt', () => {
    const time = clock();
    const rate = new ClientPieceRate(10, peer, { now: time.now });
    const debtor = rate.open(request('192.0.2.1'))!;
    for (let i = 0; i < 200; i++) debtor.bucket.take();
    debtor.done();
    const busy = rate.open(request('192.0.2.2'))!;
    rate.open(request('192.0.2.3'))!.done();
    time.advance(10_000);
    // The sweep runs on the next open: the debtor still owes 9 s, the busy one is in use.
    rate.open(request('192.0.2.4'))!.done();
    expect(rate.clients).toBe(3);
    expect(rate.open(request('192.0.2.1'))!.bucket).toBe(debtor.bucket);
    busy.done();
  });
});
