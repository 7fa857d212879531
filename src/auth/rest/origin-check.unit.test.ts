import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from '../config.ts';
import { isSameSiteRequest } from './origin-check.ts';

const config = parseAuthConfig(new Map([['AUTH_PUBLIC_BASE_URL', 'https://auth.example.com']]));
const request = (headers: Record<string, string>) => new Request('http://127.0.0.1:3000/api/auth/logout', { method: 'POST', headers });

describe('isSameSiteRequest()', () => {
  it.each([
    [{ origin: 'http://127.0.0.1:3000' }, true],
    [{ origin: 'https://auth.example.com' }, true],
    [{ origin: 'https://evil.example' }, false],
    [{ origin: 'http://127.0.0.1:3001' }, false],
    [{ origin: 'null' }, false],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'none' }, true],
    [{ 'sec-fetch-site': 'same-site' }, false],
    [{ 'sec-fetch-site': 'cross-site' }, false],
    [{}, true],
  ])('%j → %s', (headers, expected) => {
    expect(isSameSiteRequest(request(headers), config)).toBe(expected);
  });
});
