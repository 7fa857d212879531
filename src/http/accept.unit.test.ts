import { describe, expect, it } from 'vitest';
import { prefersHtml } from './accept.ts';

describe('prefersHtml()', () => {
  it('picks HTML for a browser navigation', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8')).toBe(true);
  });
  it('keeps JSON for API clients', () => {
    for (const accept of [undefined, '', '*/*', 'application/json', 'application/json, text/html;q=0.5', 'text/html, application/json', 'text/html;q=0'])
      expect(prefersHtml(accept), String(accept)).toBe(false);
  });
});
