/** readCredentials(): a broken or incomplete form is the client's bad input (400 `validation`), never an internal failure nor a redirect. */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';

describe('readCredentials()', () => {
  // Found by Schemathesis against the Node host: the form parser's TypeError became `internal`,
  // logged at error level as a 500 and sent back to /login?error=internal.
  it.each([
    ['multipart without a boundary', 'multipart/form-data', 'email=a%40example.com&password=x'],
    ['multipart with a broken body', 'multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nno end'],
    // Schemathesis with every check: a form without a field was answered 303, as if accepted.
    ['a urlencoded form without password', 'application/x-www-form-urlencoded', 'email=a%40example.com'],
    ['a multipart form without password', 'multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--XYZ--\r\n'],
  ])('answers %s with 400 validation', async (_, contentType, body) => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    for (const path of ['/api/auth/password/register', '/api/auth/password/login']) {
      const response = await app.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': contentType }, body }));
      // An invalid form post is refused with 400 and the /login page showing the error (no redirect, which would claim success).
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(response.headers.get('location'), path).toBeNull();
      expect(await response.text(), path).toContain('aria-invalid="true"');
    }
  });

  it('answers a registration form with an address it does not take with 400 and the page, not a redirect', async () => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    const body = `email=${'a'.repeat(300)}%40example.com&password=correct+horse+battery`;
    const response = await app.fetch(
      new Request('http://localhost/api/auth/password/register', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('aria-invalid="true"');
  });
});

describe('a rate-limited password form', () => {
  it('gets 429 with Retry-After and the /login page, not a redirect', async () => {
    const app = buildApp(createMemoryPlatform(), parseConfig([['AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE', '1']]));
    const post = () =>
      app.fetch(
        new Request('http://localhost/api/auth/password/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'email=a%40example.com&password=correct+horse+battery',
        }),
      );
    expect((await post()).status).toBe(303);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(limited.headers.get('location')).toBeNull();
    expect(limited.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
