/**
 * The piece budget: one bucket (debt-bucket.ts) per client key (IPv6 per /64), shared by the
 * client's bodies, kept while a body uses it, forgotten once full again; what a new connection's
 * peer owes, a trusted proxy never anything.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { NodeRequest } from '../net/node-http.ts';
import { ClientPieceRate } from './piece-rate.ts';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const request = (remoteAddress: string | undefined) => Object.assign(new EventEmitter(), { httpVersionMajor: 1, socket: { remoteAddress } }) as unknown as NodeRequest;
const peer = (req: NodeRequest) => (req.socket as unknown as { remoteAddress?: string }).remoteAddress;

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
