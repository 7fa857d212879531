/** Forwarded (RFC 7239) and X-Forwarded-For parsing: hops client first, null for unnamed nodes, undefined when malformed. */
import { describe, expect, it } from 'vitest';
import { parseForwarded, parseXForwardedFor } from './forwarded.ts';

describe('parseForwarded()', () => {
  it.each([
    ['for=192.0.2.60;proto=http;by=203.0.113.43', ['192.0.2.60']],
    ['for="_gazonk"', [null]],
    ['For="[2001:db8:cafe::17]:4711"', ['2001:db8:cafe::17']],
    ['for=192.0.2.43, for=198.51.100.17', ['192.0.2.43', '198.51.100.17']],
    ['for=unknown, for="198.51.100.17:_port"', [null, '198.51.100.17']],
    ['proto=https;by=10.0.0.1', [null]],
    ['for="192.0.2.1:80";host="a,b;c", for=10.0.0.2', ['192.0.2.1', '10.0.0.2']],
    ['for="[::FFFF:192.0.2.9]"', ['192.0.2.9']],
    ['for="\\"quoted\\"unknown"', undefined],
  ])('%s', (value, hops) => {
    expect(parseForwarded(value)).toEqual(hops);
  });

  it.each([
    'for=[2001:db8::1]', // an IPv6 node must be quoted (':' is not a token character)
    'for="2001:db8::1"', // … and bracketed
    'for=192.0.2.1:80', // a port needs quotes
    'for=192.0.2.1;for=192.0.2.2', // a parameter twice in one element
    'for="192.0.2.1',
    'for=',
    'for=999.0.2.1',
    'for="[192.0.2.1]"',
    'for="[2001:db8::1]x"',
    'for="[fe80::1%eth0]"',
    'for=evil.example',
    'for="192.0.2.1:http"',
    'for 192.0.2.1',
  ])('malformed: %s', (value) => {
    expect(parseForwarded(value)).toBeUndefined();
  });
});

describe('parseXForwardedFor()', () => {
  it.each([
    ['203.0.113.195', ['203.0.113.195']],
    ['203.0.113.195, 70.41.3.18 ,150.172.238.178', ['203.0.113.195', '70.41.3.18', '150.172.238.178']],
    ['2001:DB8::1, [2001:db8::2]:4711, 192.0.2.1:80', ['2001:db8::1', '2001:db8::2', '192.0.2.1']],
    ['unknown, 10.0.0.1', [null, '10.0.0.1']],
    ['::ffff:10.1.2.3', ['10.1.2.3']],
  ])('%s', (value, hops) => {
    expect(parseXForwardedFor(value)).toEqual(hops);
  });

  it.each(['', '203.0.113.195,', 'evil.example', '[203.0.113.195]', '1.2.3.4:99999', '1.2.3.4 5.6.7.8', 'fe80::1%eth0'])('malformed: %j', (value) => {
    expect(parseXForwardedFor(value)).toBeUndefined();
  });
});
