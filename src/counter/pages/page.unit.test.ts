/** `GET /`: the server-rendered page with the current view, its assets and its security headers. */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.ts';
import { executeCounterCommand } from '../application/execute-command.ts';
import { testCounterDeps } from '../testing.ts';
import { scriptSafeJson } from './page.tsx';
import { PAGE_CSP } from '../../web/security-headers.ts';
import { counterPageRoutes } from './routes.tsx';
import type { StaticAsset } from '../../web/static-assets.ts';
import type { WriteAccess } from '../write-access.ts';

const asset = (name: string, file: string): StaticAsset => ({ name, file, hash: 'h', contentType: 'text/plain', encoding: 'utf8', data: '' });
const ASSETS = [asset('app.js', 'app.aaa.js'), asset('account.js', 'account.ddd.js'), asset('styles.css', 'styles.bbb.css'), asset('icon.svg', 'icon.ccc.svg')];

function setup(writeAccess?: WriteAccess) {
  const deps = { ...testCounterDeps(), ...(writeAccess ? { writeAccess } : {}) };
  const app = new Hono();
  app.route('/', counterPageRoutes(deps, ASSETS));
  return { app, deps };
}

describe('GET / (the counter page)', () => {
  it('renders the current count, the ledger and the embedded view', async () => {
    const { app, deps } = setup();
    await executeCounterCommand(deps, { type: 'increment', amount: 1500 });
    await executeCounterCommand(deps, { type: 'decrement', amount: 2734 });
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('data-count="-1234"');
    expect(html).toContain('>\u22121\u2009234</output>');
    expect(html.match(/<li class="event event-/g)).toHaveLength(2);
    // The counter's own revision and the event in words; the time as UTC until the client localizes it.
    expect(html).toContain('<span class="event-rev" title="revision of the counter">#2</span>');
    expect(html).toContain('<span class="visually-hidden">Decrement: </span>\u22122\u202f734 \u2192 \u22121\u202f234</span>');
    expect(html).toContain('<time class="event-time" datetime="2025-01-01T00:00:00.000Z" data-local="time">00:00:00 UTC</time>');
    expect(html).toContain('<span id="revision">2</span>');
    const embedded = /<script id="initial-view" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(embedded ?? '')).toMatchObject({ count: -1234, last_sequence: 2, realtime_enabled: true });
  });

  it('links the hashed script, stylesheet and icon, and labels every control', async () => {
    const { app } = setup();
    const html = await (await app.request('/')).text();
    expect(html).toContain('<script type="module" src="/pkg/app.aaa.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/pkg/styles.bbb.css"/>');
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="/pkg/icon.ccc.svg"/>');
    expect(html).toMatch(/<output id="count"[^>]*aria-live="polite"/);
    for (const id of ['batch-range', 'batch-amount']) {
      expect(html).toMatch(new RegExp(`<label[^>]*for="${id}"`));
      expect(html).toContain(`<input id="${id}"`);
    }
  });

  it('sends a strict CSP and no caching', async () => {
    const { app } = setup();
    const response = await app.request('/');
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a storage failure with the store error envelope', async () => {
    const { app, deps } = setup();
    deps.platform.faults.failAlways('readStream', new StoreError('unavailable', 'down'));
    deps.platform.faults.failAlways('getDocument', new StoreError('unavailable', 'down'));
    const response = await app.request('/');
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('store');
  });

  it('scriptSafeJson() cannot close the script element', () => {
    const text = scriptSafeJson({ payload: '</script><script>alert(1)</script>&\u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ payload: '</script><script>alert(1)</script>&\u2028' });
  });
});

describe('GET / under COUNTER_WRITES', () => {
  it('carries the policy and a hidden sign-in note for the client to show', async () => {
    const open = await (await setup().app.request('/')).text();
    expect(open).toContain('data-writes="anyone"');
    const guarded = await (await setup({ policy: 'signed-in', sender: async () => undefined }).app.request('/')).text();
    expect(guarded).toContain('data-writes="signed-in"');
    expect(guarded).toMatch(
      /<p id="writes-note" class="writes-note" hidden="">\s*<a id="writes-sign-in" class="button button-primary" href="\/login\?next=%2F">Sign in to change the count<\/a>/,
    );
  });
});
