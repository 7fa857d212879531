/**
 * The per-client count: up to the limit per client key (IPv6 per /64), released when a response
 * closes, or when its HTTP/1.1 socket does (a pipelined response that never started gets no
 * 'close' of its own), once either way.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import { ClientExchangeLimit } from './client-limit.ts';

class FakeSocket extends EventEmitter {
  destroyed = false;
  readonly remoteAddress: string;
  constructor(remoteAddress: string) {
    super();
    this.remoteAddress = remoteAddress;
  }
}

function exchange(socket: FakeSocket, httpVersionMajor = 1): { req: NodeRequest; res: NodeResponse & EventEmitter } {
  return { req: { httpVersionMajor, socket } as unknown as NodeRequest, res: new EventEmitter() as unknown as NodeResponse & EventEmitter };
}

const peer = (req: NodeRequest) => (req.socket as unknown as FakeSocket).remoteAddress;

describe('ClientExchangeLimit', () => {
  it('admits up to the limit per client, others apart, and one more once a response closes', () => {
    const limit = new ClientExchangeLimit(2, peer);
    const a = new FakeSocket('192.0.2.1');
    const first = exchange(a);
    expect(limit.admit(first.req, first.res)).toEqual({ admitted: true });
    const second = exchange(a);
    expect(limit.admit(second.req, second.res)).toEqual({ admitted: true });
    const third = exchange(a);
    expect(limit.admit(third.req, third.res)).toEqual({ admitted: false, client: '192.0.2.1' });
    const other = exchange(new FakeSocket('192.0.2.2'));
    expect(limit.admit(other.req, other.res)).toEqual({ admitted: true });
    expect(limit.stats).toEqual({ refused: 1, busiest: 2 });

    first.res.emit('close');
    first.res.emit('close');
    expect(limit.inFlight('192.0.2.1')).toBe(1);
    expect(limit.admit(third.req, third.res)).toEqual({ admitted: true });
  });

  it('counts IPv6 clients per /64', () => {
    const limit = new ClientExchangeLimit(1, peer);
    const one = exchange(new FakeSocket('2001:db8:1:2::a'), 2);
    expect(limit.admit(one.req, one.res)).toEqual({ admitted: true });
    const sameSubnet = exchange(new FakeSocket('2001:db8:1:2:ffff::b'), 2);
    expect(limit.admit(sameSubnet.req, sameSubnet.res)).toEqual({ admitted: false, client: '2001:db8:1:2::/64' });
    const nextSubnet = exchange(new FakeSocket('2001:db8:1:3::a'), 2);
    expect(limit.admit(nextSubnet.req, nextSubnet.res)).toEqual({ admitted: true });
  });

  it('releases every exchange of an HTTP/1.1 socket when it closes, and none twice', () => {
    const limit = new ClientExchangeLimit(10, peer);
    const socket = new FakeSocket('192.0.2.1');
    const pipelined = [exchange(socket), exchange(socket), exchange(socket)];
    for (const { req, res } of pipelined) limit.admit(req, res);
    pipelined[0]!.res.emit('close');
    expect(limit.inFlight('192.0.2.1')).toBe(2);
    socket.emit('close');
    expect(limit.inFlight('192.0.2.1')).toBe(0);
    for (const { res } of pipelined) res.emit('close');
    const elsewhere = exchange(new FakeSocket('192.0.2.1'));
    limit.admit(elsewhere.req, elsewhere.res);
    expect(limit.inFlight('192.0.2.1')).toBe(1);
    expect(limit.stats.busiest).toBe(1);
  });

  it('does not count an exchange whose connection is gone already', () => {
    const limit = new ClientExchangeLimit(1, peer);
    const socket = new FakeSocket('192.0.2.1');
    socket.destroyed = true;
    const gone = exchange(socket);
    expect(limit.admit(gone.req, gone.res)).toEqual({ admitted: true });
    expect(limit.inFlight('192.0.2.1')).toBe(0);
  });
});
