import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from '../config.ts';
import { relyingParty } from './relying-party.ts';

const rpFor = (base: string | undefined) => relyingParty(parseAuthConfig(new Map(base === undefined ? [] : [['AUTH_PUBLIC_BASE_URL', base]])));

describe('relyingParty()', () => {
  it("is the public base URL's host and origin", () => {
    expect(rpFor('http://localhost:3000')).toMatchObject({ id: 'localhost', origin: 'http://localhost:3000' });
    expect(rpFor('https://auth.example.com')).toMatchObject({ id: 'auth.example.com', origin: 'https://auth.example.com' });
  });

  it('is undefined without a public base URL, or with an IP address for its host (no valid RP ID)', () => {
    expect(rpFor(undefined)).toBeUndefined();
    expect(rpFor('http://127.0.0.1:3000')).toBeUndefined();
    expect(rpFor('http://[::1]:3000')).toBeUndefined();
  });
});
