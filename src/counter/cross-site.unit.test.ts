/**
 * Counter REST POSTs and server functions refuse cross-site browser requests
 * (403 `forbidden`, the error envelope) like the auth forms; the check compares with the configured
 * public origin, so a spoofed Host does not make a foreign Origin pass; clients without Origin and
 * Sec-Fetch-Site (curl, grpcurl) keep working.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';
import { createMemoryPlatform } from '../platform/testing/memory-platform.ts';

const WRITES: Array<[string, string]> = [
  ['/api/counter/reset', ''],
  ['/api/counter/increment', '{"amount":1}'],
  ['/api/counter/decrement?amount=1', ''],
  ['/api/reset_count', ''],
  ['/api/increment_count', '{"amount":1}'],
];

function post(base: string, path: string, body: string, headers: Record<string, string>): Request {
  return new Request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body || undefined });
}

describe('cross-site counter writes', () => {
  it.each(WRITES)('%s: a cross-site page is refused with 403, curl-like clients and the page itself pass', async (path, body) => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    const evil = await app.fetch(post('http://127.0.0.1:3000', path, body, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }));
    expect(evil.status).toBe(403);
    expect(await evil.json()).toEqual({ error: { code: 'forbidden', message: 'cross-site request refused' } });
    expect((await app.fetch(post('http://127.0.0.1:3000', path, body, {}))).status).toBe(200);
    expect((await app.fetch(post('http://127.0.0.1:3000', path, body, { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }))).status).toBe(200);
  });

  it('a spoofed Host (DNS rebinding) does not make a foreign Origin pass, with or without a public base URL', async () => {
    for (const env of [[], [['AUTH_PUBLIC_BASE_URL', 'https://counter.example.com']]] as Array<Array<[string, string]>>) {
      const app = buildApp(createMemoryPlatform(), parseConfig(env));
      for (const [path, body] of WRITES) {
        const response = await app.fetch(post('http://evil.example', path, body, { origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' }));
        expect(response.status, `${path} ${JSON.stringify(env)}`).toBe(403);
      }
    }
    const configured = buildApp(createMemoryPlatform(), parseConfig([['AUTH_PUBLIC_BASE_URL', 'https://counter.example.com']]));
    expect((await configured.fetch(post('http://127.0.0.1:3000', '/api/counter/reset', '', { origin: 'https://counter.example.com' }))).status).toBe(200);
  });
});
