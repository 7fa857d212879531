import { describe, expect, it } from 'vitest';
import { isCrossSiteSubresource } from './fetch-metadata.ts';

const refused = (headers: Record<string, string>) => isCrossSiteSubresource(new Headers(headers));

describe('isCrossSiteSubresource()', () => {
  it('refuses cross-site requests that are not a page navigation', () => {
    expect(refused({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' })).toBe(true);
    expect(refused({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' })).toBe(true);
    expect(refused({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' })).toBe(true);
    expect(refused({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' })).toBe(true);
    expect(refused({ 'sec-fetch-site': 'cross-site' })).toBe(true);
  });

  it('allows navigations, same-site requests and clients without Fetch Metadata', () => {
    expect(refused({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBe(false);
    expect(refused({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).toBe(false);
    for (const site of ['same-origin', 'same-site', 'none']) expect(refused({ 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' })).toBe(false);
    expect(refused({})).toBe(false);
  });
});
