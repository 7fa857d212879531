/** The stream a relayed response hands over is adopted under its client's key, as the per-client limits key it. */
import { describe, expect, it } from 'vitest';
import { RELAY_HEADER } from '../../src/contract/headers.ts';
import { clientAddressOf } from '../net/client-address.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import type { HostLogger } from '../log.ts';
import { relayHook } from './hook.ts';
import type { StreamRelay } from './relay.ts';

const encoder = new TextEncoder();
const silent: HostLogger = { log: () => undefined };

/** The client key `relayHook` adopts a GET stream under, for a peer and request headers. */
function adoptedKey(peer: string, headers: Record<string, string>, trustedProxies: string[] = []): string | undefined {
  let key: string | undefined = 'not adopted';
  const relay = { mark: () => 0, adopt: (...args: unknown[]) => void (key = args[4] as string | undefined) } as unknown as StreamRelay;
  const req = { method: 'GET', url: '/api/counter/stream', headers, httpVersionMajor: 1, socket: { remoteAddress: peer } } as unknown as NodeRequest;
  const hook = relayHook(relay, silent, req, clientAddressOf(trustedProxies));
  const relayed = hook.head(200, [[RELAY_HEADER, encoder.encode('channel=c; mode=off; interval=500; after=0')]], {} as NodeResponse);
  relayed.adopt?.();
  return key;
}

describe('relayHook', () => {
  it('adopts the stream under the client key of the peer, IPv6 per /64', () => {
    expect(adoptedKey('127.0.0.2', {})).toBe('127.0.0.2');
    expect(adoptedKey('::ffff:127.0.0.2', {})).toBe('127.0.0.2');
    expect(adoptedKey('2001:db8:0:1:aaaa::1', {})).toBe(adoptedKey('2001:db8:0:1:bbbb::2', {}));
  });

  it('behind a trusted proxy, under the client the proxy names; a forwarded header from anyone else is ignored', () => {
    expect(adoptedKey('10.0.0.1', { 'x-forwarded-for': '198.51.100.7' }, ['10.0.0.0/8'])).toBe('198.51.100.7');
    expect(adoptedKey('192.0.2.9', { 'x-forwarded-for': '198.51.100.7' }, ['10.0.0.0/8'])).toBe('192.0.2.9');
  });
});
