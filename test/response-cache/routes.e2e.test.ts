/**
 * The response cache on the routes that use it (docs/response-cache.md), with two real host
 * processes on one SQLite file, one with the cache and one without:
 * - for the same state, every cached route gives byte-identical bodies with the cache on (a miss
 *   that stores, then hits) and off; HEAD comes from the same entries;
 * - the private cache fields never reach a client; only stored responses carry the host's ETag,
 *   and If-None-Match gets a 304 only from a validated entry;
 * - nothing is shared between users: a request with a session cookie is never answered from an
 *   entry (the view does not Vary on Cookie); that Set-Cookie responses are never stored is a unit test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, register, sessionOf } from '../auth/support.ts';
import { startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';

let on: HostProcess;
let off: HostProcess;

beforeAll(async () => {
  const dataDir = tempDataDir('cache-routes-');
  on = await startHost({ dataDir });
  off = await startHost({ dataDir, args: ['--response-cache', 'off'] });
});
afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
});

const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());
const increment = (url: string) => fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":3}' });

async function cachedRoutes(): Promise<string[]> {
  const page = await (await fetch(`${off.url}/`)).text();
  const assets = [...page.matchAll(/(?:href|src)="(\/pkg\/[^"]+)"/g)].map((m) => m[1]!);
  expect(assets.length).toBeGreaterThanOrEqual(2);
  return ['/api/counter/view', '/api/get_counter_view', '/', ...new Set(assets)];
}

describe('response cache on the routes', () => {
  it('gives byte-identical bodies with the cache on (miss, then hits) and off, at every state', async () => {
    const routes = await cachedRoutes();
    for (let state = 0; state < 3; state++) {
      for (const route of routes) {
        const reference = await bytes(await fetch(`${off.url}${route}`));
        const first = await fetch(`${on.url}${route}`);
        const second = await fetch(`${on.url}${route}`);
        expect(first.status, route).toBe(200);
        expect(await bytes(first), route).toEqual(reference);
        expect(await bytes(second), route).toEqual(reference);
        const head = await fetch(`${on.url}${route}`, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(Number(head.headers.get('content-length')), route).toBe(reference.byteLength);
        expect((await bytes(head)).byteLength).toBe(0);
      }
      expect((await increment(state % 2 ? on.url : off.url)).status).toBe(200);
    }
  });

  it('never shows Surrogate-Control or the dependency header; the ETag only with the cache on', async () => {
    for (const route of await cachedRoutes()) {
      for (const host of [on, off]) {
        const response = await fetch(`${host.url}${route}`);
        await response.arrayBuffer();
        expect(response.headers.get('surrogate-control')).toBeNull();
        expect(response.headers.get('x-app-cache-deps')).toBeNull();
      }
    }
    const viewOn = await fetch(`${on.url}/api/counter/view`);
    const viewOff = await fetch(`${off.url}/api/counter/view`);
    expect(viewOn.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(viewOff.headers.get('etag')).toBeNull();
    expect(viewOn.headers.get('cache-control')).toBe('no-store');
  });

  it('answers If-None-Match with 304 while the stream is unchanged and with the new view after a write elsewhere', async () => {
    const first = await fetch(`${on.url}/api/counter/view`);
    const etag = first.headers.get('etag')!;
    const before = (await first.json()) as { last_sequence: number };
    const unchanged = await fetch(`${on.url}/api/counter/view`, { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(await unchanged.text()).toBe('');
    expect((await increment(off.url)).status).toBe(200);
    const changed = await fetch(`${on.url}/api/counter/view`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as { last_sequence: number }).last_sequence).toBe(before.last_sequence + 1);
  });

  it("does not answer a request carrying a session cookie from the cache; two users never see each other's session", async () => {
    // Prime the entry without a cookie, then present its ETag with a user's cookie: a cached
    // answer would be a 304; the guest answers 200 (and the response is not stored: no ETag).
    const primed = await fetch(`${on.url}/api/counter/view`);
    const etag = primed.headers.get('etag')!;
    await primed.arrayBuffer();
    const user = await register(on.url);
    const withCookie = await fetch(`${on.url}/api/counter/view`, { headers: { 'if-none-match': etag, ...cookieHeader(user.sessionId) } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get('etag')).toBeNull();
    await withCookie.arrayBuffer();
    // Two users' sessions through the cached host: each sees their own, never the other's.
    const other = await register(on.url);
    for (let i = 0; i < 3; i++) {
      const mine = await sessionOf(on.url, user.sessionId);
      const theirs = await sessionOf(on.url, other.sessionId);
      expect(JSON.stringify(mine)).toContain(user.userId);
      expect(JSON.stringify(theirs)).toContain(other.userId);
      expect(JSON.stringify(theirs)).not.toContain(user.userId);
    }
  });
});
