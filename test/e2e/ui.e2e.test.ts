/**
 * The UI handler over real HTTP against the real host and component: static files under /pkg
 * (content types, immutable caching, 404), the page, and the server functions' paths and
 * encoding as docs/ui.md documents them (sharing the state REST sees).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';

let host: HostProcess;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host?.stop();
});

/** The /pkg URLs the page links to. */
async function linkedAssets(): Promise<string[]> {
  const html = await (await fetch(`${host.url}/`)).text();
  return [...html.matchAll(/(?:src|href)="(\/pkg\/[^"]+)"/g)].map((m) => m[1]!);
}

describe('static files under /pkg', () => {
  it('serves every linked file with its content type and a one-year immutable cache lifetime', async () => {
    const urls = [...new Set(await linkedAssets())];
    const types = new Map<string, string>();
    for (const url of urls) {
      expect(url).toMatch(/^\/pkg\/[a-z]+\.[0-9a-f]{12}\.(js|css|svg)$/);
      const response = await fetch(`${host.url}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      types.set(url.split('.').at(-1)!, response.headers.get('content-type')!);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect(Object.fromEntries(types)).toEqual({ js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' });
  });

  it('answers unknown files with the 404 error envelope', async () => {
    const [script] = await linkedAssets();
    const stale = script!.replace(/\.[0-9a-f]{12}\./, '.000000000000.');
    for (const path of [stale, '/pkg/app.js', '/pkg/nothing-here.css', '/pkg/']) {
      const response = await fetch(`${host.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });
});

describe('GET /', () => {
  it('renders the page on the server with the current count', async () => {
    await fetch(`${host.url}/api/counter/reset`, { method: 'POST' });
    await fetch(`${host.url}/api/counter/decrement?amount=7`, { method: 'POST' });
    const response = await fetch(`${host.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('data-count="-7"');
    // The event in words: the change and the count it left, under the counter's own revision.
    expect(html).toContain('<span class="visually-hidden">Decrement: </span>−7 → −7</span>');
    expect(html).toContain('<span class="event-rev" title="revision of the counter">#2</span>');
  });
});

describe('server functions over HTTP', () => {
  const call = (path: string, init: RequestInit = {}) => fetch(`${host.url}${path}`, init);
  const json = (amount: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) });

  it('use the documented paths and JSON encoding, and share state with REST', async () => {
    const reset = (await (await call('/api/reset_count', { method: 'POST' })).json()) as { count: number; last_sequence: number };
    expect(reset.count).toBe(0);
    const up = await call('/api/increment_count', json(12));
    expect(up.status).toBe(200);
    expect(up.headers.get('cache-control')).toBe('no-store');
    const down = (await (await call('/api/decrement_count', json(5))).json()) as { count: number; last_sequence: number };
    expect(down).toMatchObject({ count: 7, last_sequence: reset.last_sequence + 2 });
    const viaRest = (await (await call('/api/counter/view')).json()) as { count: number };
    const viaFunction = (await (await call('/api/get_counter_view')).json()) as { count: number };
    expect(viaRest.count).toBe(7);
    expect(viaFunction).toEqual(viaRest);
  });

  it('return the server-function error for an invalid amount, and log it with its code', async () => {
    const response = await call('/api/decrement_count', json(0));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'validation', message: 'amount must be positive' } });
    await expect.poll(() => host.logs().some((l) => l['code'] === 'validation' && l['function'] === 'decrement_count')).toBe(true);
  });
});

describe('transport grpc', () => {
  it('answers the page, static files and server functions with the gRPC-mode 404 text', async () => {
    const grpcHost = await startHost({ args: ['--transport', 'grpc'] });
    try {
      for (const path of ['/', '/api/get_counter_view', '/pkg/app.js']) {
        const response = await fetch(`${grpcHost.url}${path}`);
        expect(response.status, path).toBe(404);
        expect(await response.text()).toMatch(/gRPC mode/);
      }
    } finally {
      await grpcHost.stop();
    }
  });
});
