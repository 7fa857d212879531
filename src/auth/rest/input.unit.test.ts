/** readCredentials(): a broken form is the client's bad input (`validation`), never an internal failure. */
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
  ])('answers %s with 400 validation', async (_, contentType, body) => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    for (const path of ['/api/auth/password/register', '/api/auth/password/login']) {
      const response = await app.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': contentType }, body }));
      // Form posts answer failures with a redirect back to the page, carrying the code.
      expect(response.status, path).toBe(303);
      expect(response.headers.get('location'), path).toMatch(/^\/login\?error=validation&/);
    }
  });
});
