/**
 * The browser UI under the real `wasmtime serve` (standalone component, polling realtime): the
 * server-rendered page, its embedded /pkg assets, the server functions, and Chromium using the
 * page — the same behaviour as on the Node host.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, shownCount } from '../support/browser.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';

const wasmtime = requireTool('wasmtime');
const chromium = requireTool('chromium');

describe.skipIf(!wasmtime || !chromium)('browser UI under wasmtime serve', () => {
  let server: WasmtimeProcess;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWasmtime({ instanceReuse: 16 }, wasmtime!.path), launchChromium(chromium!)]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the page and every asset it links, with content types and immutable caching', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/pkg\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const path of assets) {
      const asset = await fetch(`${server.url}${path}`);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      const type = asset.headers.get('content-type') ?? '';
      if (path.endsWith('.js')) expect(type).toMatch(/javascript/);
      if (path.endsWith('.css')) expect(type).toMatch(/^text\/css/);
      await asset.arrayBuffer();
    }
    const missing = await fetch(`${server.url}/pkg/nothing.0123456789ab.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('answers the server functions as on the Node host', async () => {
    const before = (await (await fetch(`${server.url}/api/get_counter_view`)).json()) as { count: number };
    const changed = await fetch(`${server.url}/api/increment_count`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":3}' });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { count: number }).count).toBe(before.count + 3);
    const invalid = await fetch(`${server.url}/api/decrement_count`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":0}' });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toBe('amount must be positive');
  });

  it('works in Chromium: +1 changes the count and an outside change arrives by polling', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const { page } = watched;
      await page.waitForSelector('#status[data-status="live"]', { timeout: 15_000 });
      const start = await shownCount(page);
      await page
        .getByRole('button', { name: /increment by 1|\+1/i })
        .first()
        .click();
      await page.waitForSelector(`#count[data-count="${start + 1}"]`, { timeout: 10_000 });
      await fetch(`${server.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":5}' });
      await page.waitForSelector(`#count[data-count="${start + 6}"]`, { timeout: 10_000 });
      expect(watched.problems).toEqual([]);
    } finally {
      await watched.close();
    }
  });
});
