import { describe, expect, it } from 'vitest';
import { isSameSiteRequest } from '../../http/same-site.ts';

const request = (url: string, headers: Record<string, string>) => new Request(url, { method: 'POST', headers });

describe('isSameSiteRequest()', () => {
  it.each([
    [{ origin: 'https://auth.example.com' }, true],
    [{ origin: 'https://auth.example.com', 'sec-fetch-site': 'same-origin' }, true],
    [{ origin: 'http://127.0.0.1:3000' }, false],
    [{ origin: 'https://evil.example' }, false],
    [{ origin: 'null' }, false],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'none' }, true],
    [{ 'sec-fetch-site': 'same-site' }, false],
    [{ 'sec-fetch-site': 'cross-site' }, false],
    [{ origin: 'https://auth.example.com', 'sec-fetch-site': 'cross-site' }, false],
    [{}, true],
  ])('with a public origin: %j → %s', (headers, expected) => {
    expect(isSameSiteRequest(request('http://127.0.0.1:3000/api/auth/logout', headers), 'https://auth.example.com')).toBe(expected);
  });

  it.each([
    ['http://127.0.0.1:3000/x', { origin: 'http://127.0.0.1:3000' }, true],
    ['http://localhost:3000/x', { origin: 'http://localhost:3000' }, true],
    ['http://127.0.0.1:3000/x', { origin: 'http://127.0.0.1:3001' }, false],
    // DNS rebinding / a spoofed Host: the page's origin matches the Host, but it is not loopback.
    ['http://evil.example:3000/x', { origin: 'http://evil.example:3000' }, false],
    ['http://evil.example/x', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, false],
  ])('without one: %s %j → %s', (url, headers, expected) => {
    expect(isSameSiteRequest(request(url, headers), undefined)).toBe(expected);
  });
});
