/** The whole application's routing, natively over the in-memory platform. */
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { parseConfig } from './config.ts';
import { createMemoryPlatform } from './platform/testing/memory-platform.ts';

describe('hot routes', () => {
  it('answers GET view and health without a promise (Hono one-handler path, no composition)', async () => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    for (const path of ['/api/counter/view', '/api/health']) {
      const response = app.fetch(new Request(`http://localhost${path}`));
      expect(response, path).toBeInstanceOf(Response);
      expect((response as Response).status).toBe(200);
    }
  });

  it('still answers other methods on the view with 405 and HEAD like GET', async () => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    const refused = await app.fetch(new Request('http://localhost/api/counter/view', { method: 'DELETE' }));
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD');
    const head = await app.fetch(new Request('http://localhost/api/counter/view', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await head.text()).toBe('');
  });
});

describe('read-only paths', () => {
  // Found by Schemathesis (unsupported_method): TRACE /api/health answered 404 not_found, not 405
  // (undici refuses to build a TRACE request, so the other methods stand in for it here).
  it.each(['/api/health', '/api/counter/stream', '/api/openapi.json', '/api/docs', '/login', '/dashboard'])('answer other methods on %s with 405 and Allow', async (path) => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    for (const method of ['POST', 'DELETE', 'PUT']) {
      const refused = await app.fetch(new Request(`http://localhost${path}`, { method }));
      expect(refused.status, `${method} ${path}`).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, HEAD');
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    }
  });
});
