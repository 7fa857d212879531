import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey()', () => {
  it('keeps an IPv4 address whole (/32)', () => {
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('192.0.2.2')).not.toBe(clientKey('192.0.2.1'));
  });

  it('counts IPv6 per /64: every interface id of one prefix is one client', () => {
    const key = '2001:db8:85a3:42::/64';
    for (const address of ['2001:db8:85a3:42::1', '2001:db8:85a3:42:ffff:ffff:ffff:fffe', '2001:0DB8:85A3:0042:0000:0000:0000:0001', '2001:db8:85a3:42:1:2:3:4'])
      expect(clientKey(address)).toBe(key);
    expect(clientKey('2001:db8:85a3:43::1')).toBe('2001:db8:85a3:43::/64');
  });

  it('reads every text form of an address alike (RFC 4291 §2.2, RFC 5952)', () => {
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8:0:0:1::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8::0.0.0.1')).toBe('2001:db8:0:0::/64');
  });

  it('an IPv4-mapped IPv6 address is its IPv4 client', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('::FFFF:c000:0201')).toBe('192.0.2.1');
    expect(clientKey('0:0:0:0:0:ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it.each(['unknown', '1:2:3:4:5:6:7:8:9', '1::2::3', '256.1.1.1', '1.2.3', '12345::', '::ffff:1.2.3.999'])('%j does not parse: counted as itself', (text) => {
    expect(clientKey(text)).toBe(text);
  });
});
