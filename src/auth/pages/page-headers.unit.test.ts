/** /login, /dashboard and the sign-in error page carry the security headers of `/` (no framing, no sniffing, no referrer leaks). */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';

describe('auth page security headers', () => {
  it('are those of / (CSP with frame-ancestors none, nosniff, no cross-origin referrer); no inline style or script is allowed', async () => {
    const app = buildApp(createMemoryPlatform(), parseConfig([]));
    const root = await app.fetch(new Request('http://127.0.0.1/'));
    expect(root.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const post = (path: string) =>
      app.fetch(
        new Request(`http://127.0.0.1/api/auth/password/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'pages@example.com', password: 'correct horse battery' }),
        }),
      );
    expect((await post('register')).status).toBe(202);
    const login = await post('login');
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const pages = {
      login: await app.fetch(new Request('http://127.0.0.1/login')),
      dashboard: await app.fetch(new Request('http://127.0.0.1/dashboard', { headers: { cookie } })),
      signInError: await app.fetch(new Request('http://127.0.0.1/api/auth/oauth/provider_a/callback?code=x&state=y')),
    };
    expect([pages.login.status, pages.dashboard.status, pages.signInError.status]).toEqual([200, 200, 404]);
    for (const [name, response] of Object.entries(pages)) {
      const html = await response.text();
      expect(response.headers.get('content-type'), name).toMatch(/^text\/html/);
      expect(html, name).not.toMatch(/<style|<script>/);
      expect(response.headers.get('content-security-policy'), name).toBe(root.headers.get('content-security-policy'));
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      // Forms need a real Origin (no-referrer would make it `null`); the error page keeps no-referrer.
      expect(response.headers.get('referrer-policy'), name).toBe(name === 'signInError' ? 'no-referrer' : 'same-origin');
    }
  });
});
