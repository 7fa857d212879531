/** Who the client is: the peer, or behind trusted proxies the right-most untrusted hop of their chain. */
import { describe, expect, it } from 'vitest';
import { clientAddressOf, clientKeyOf } from './client-address.ts';
import type { NodeRequest } from './node-http.ts';

const request = (peer: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress: peer }, headers }) as unknown as NodeRequest;

describe('clientAddressOf()', () => {
  const behindProxies = clientAddressOf(['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8']);

  it('is the peer when no proxy is trusted, whatever the headers say', () => {
    const peerOnly = clientAddressOf([]);
    expect(peerOnly(request('127.0.0.1', { 'x-forwarded-for': '198.51.100.7', forwarded: 'for=198.51.100.8' }))).toBe('127.0.0.1');
    expect(peerOnly(request('::ffff:192.0.2.1'))).toBe('192.0.2.1');
  });

  it('ignores the headers of a peer that is not trusted', () => {
    expect(behindProxies(request('192.0.2.1', { 'x-forwarded-for': '198.51.100.7' }))).toBe('192.0.2.1');
    expect(behindProxies(request('::ffff:192.0.2.1', { forwarded: 'for=198.51.100.8' }))).toBe('192.0.2.1');
  });

  it('takes the right-most hop that is not trusted, so a client cannot prepend its own', () => {
    expect(behindProxies(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.66, 198.51.100.7' }))).toBe('198.51.100.7');
    expect(behindProxies(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.66, 198.51.100.7, 10.1.2.3' }))).toBe('198.51.100.7');
    expect(behindProxies(request('::ffff:127.0.0.1', { forwarded: 'for=203.0.113.66, for="[2001:db8::7]:4711", for="[fd00::3]"' }))).toBe('2001:db8::7');
  });

  it('reads Forwarded before X-Forwarded-For when both are present', () => {
    expect(behindProxies(request('127.0.0.1', { forwarded: 'for=198.51.100.8', 'x-forwarded-for': '198.51.100.7' }))).toBe('198.51.100.8');
  });

  it('is the peer without a chain or with a malformed one', () => {
    expect(behindProxies(request('127.0.0.1'))).toBe('127.0.0.1');
    expect(behindProxies(request('127.0.0.1', { 'x-forwarded-for': 'evil.example' }))).toBe('127.0.0.1');
    expect(behindProxies(request('127.0.0.1', { forwarded: 'for=[2001:db8::1]', 'x-forwarded-for': '198.51.100.7' }))).toBe('127.0.0.1');
  });

  it('is the last trusted proxy when the hop before it is unknown or obfuscated', () => {
    expect(behindProxies(request('127.0.0.1', { forwarded: 'for=198.51.100.8, for=unknown, for=10.0.0.5' }))).toBe('10.0.0.5');
    expect(behindProxies(request('127.0.0.1', { forwarded: 'for="_hidden"' }))).toBe('127.0.0.1');
  });

  it('is the left-most hop when every hop is trusted', () => {
    expect(behindProxies(request('127.0.0.1', { 'x-forwarded-for': '10.0.0.9, 10.0.0.5' }))).toBe('10.0.0.9');
  });
});

describe('clientKeyOf()', () => {
  it('finds a request’s client key once, per way of finding the address', () => {
    const behindProxy = clientAddressOf(['127.0.0.1/32']);
    let asked = 0;
    const counted = (req: NodeRequest) => {
      asked++;
      return behindProxy(req);
    };
    const req = request('127.0.0.1', { 'x-forwarded-for': '2001:db8:1:2:3:4:5:6' });
    expect(clientKeyOf(req, counted)).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf(req, counted)).toBe('2001:db8:1:2::/64');
    expect(asked).toBe(1);
    // Another way of finding the address is asked on its own.
    expect(clientKeyOf(req, clientAddressOf([]))).toBe('127.0.0.1');
    expect(clientKeyOf(request('192.0.2.1'), counted)).toBe('192.0.2.1');
    expect(asked).toBe(2);
  });

  it('is undefined when the socket is gone', () => {
    expect(clientKeyOf({ socket: null, headers: {} } as unknown as NodeRequest, clientAddressOf([]))).toBeUndefined();
  });
});
