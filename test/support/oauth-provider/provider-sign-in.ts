/**
 * A provider sign-in as a browser would make it against a host at `base`: /start, the local
 * provider's approval (./follow-authorization.ts), then our callback with the browser-binding
 * cookie /start set, asking for JSON. The callback's answer, unread.
 */
import { expect } from 'vitest';
import { followAuthorization } from './follow-authorization.ts';

export async function providerSignIn(base: string, provider = 'provider_a'): Promise<Response> {
  const start = await fetch(`${base}/api/auth/oauth/${provider}/start`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const binding = start.headers
    .getSetCookie()
    .find((c) => /wasi_oauth_binding=/.test(c))!
    .split(';')[0]!;
  const back = await followAuthorization(start.headers.get('location')!);
  const headers = { cookie: binding, accept: 'application/json' };
  if (back.method === 'GET') return fetch(`${back.target}?${new URLSearchParams(back.params)}`, { headers, redirect: 'manual' });
  return fetch(back.target, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(back.params).toString(),
    redirect: 'manual',
  });
}
