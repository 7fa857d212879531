/** The guest believes x-app-client-address only when its host says the header is its own. */
import { describe, expect, it } from 'vitest';
import { clientAddress, clientAddressTrusted } from './client-address.ts';

const headers = (value: string) => new Headers({ 'x-app-client-address': value });

describe('clientAddress()', () => {
  it('reads the header when the host vouches for it', () => {
    expect(clientAddress(headers('2001:DB8::1'), true)).toBe('2001:db8::1');
    expect(clientAddress(headers('not an address'), true)).toBe('unknown');
  });

  it('is one constant for every client otherwise, so rotating the header changes nothing', () => {
    expect(clientAddress(headers('198.51.100.1'), false)).toBe('unknown');
    expect(clientAddress(headers('198.51.100.2'), false)).toBe('unknown');
  });

  it('is vouched for by APP_CLIENT_ADDRESS_HEADER=trusted only', () => {
    expect(clientAddressTrusted(new Map([['APP_CLIENT_ADDRESS_HEADER', 'trusted']]))).toBe(true);
    expect(clientAddressTrusted(new Map([['APP_CLIENT_ADDRESS_HEADER', 'true']]))).toBe(false);
    expect(clientAddressTrusted(new Map())).toBe(false);
  });
});
