/** readCredentials(): a broken or incomplete form is the client's bad input (`validation`), never an internal failure, and its form goes back to /login with the error. */
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
  ])('sends %s back to /login with the validation error', async (_, contentType, body) => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    for (const path of ['/api/auth/password/register', '/api/auth/password/login']) {
      const response = await app.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': contentType }, body }));
      // Post/redirect/get: the browser returns to the form's own page, which shows the error beside its field.
      expect(response.status, path).toBe(303);
      expect(response.headers.get('location'), path).toMatch(/^\/login\?error=validation&form=(login|register)$/);
      const page = await app.fetch(new Request(`http://localhost${response.headers.get('location')}`));
      expect(await page.text(), path).toContain('aria-invalid="true"');
    }
  });

  it('sends a registration form with an address it does not take back to /login, the error on the email', async () => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    const body = `email=${'a'.repeat(300)}%40example.com&password=correct+horse+battery`;
    const response = await app.fetch(
      new Request('http://localhost/api/auth/password/register', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
    );
    expect(response.status).toBe(303);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const page = await app.fetch(new Request(`http://localhost${response.headers.get('location')}`, { headers: { cookie } }));
    expect(await page.text()).toMatch(/id="register-email"[^>]*aria-invalid="true"/);
  });
});

describe('a rate-limited password form', () => {
  it('goes back to /login with the moment the limit lifts', async () => {
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
    expect(limited.status).toBe(303);
    expect(limited.headers.get('location')).toMatch(/^\/login\?error=rate_limited&form=login&retry_at=[0-9]+$/);
    const page = await (await app.fetch(new Request(`http://localhost${limited.headers.get('location')}`))).text();
    expect(page).toMatch(/Too many attempts\. Try again in [0-9]+ (seconds|minutes?)\./);
  });
});
