/**
 * OAuth start as a cross-site write (docs/security.md): a page on another site puts
 * `<img src="https://service/api/auth/oauth/provider_a/start">` in front of every visitor, so each
 * visit wrote a state and spent the global sign-up budget. Against the real host (SQLite) and the
 * local provider: the image request (as Chromium sends it: `Sec-Fetch-Site: cross-site`,
 * `Sec-Fetch-Mode: no-cors`, `Sec-Fetch-Dest: image`) is refused with 403 and writes nothing;
 * a cross-site navigation (a link) still starts and completes a sign-in; and no state, from start
 * or callback, leaves an event stream behind: pending states are key-value entries with a TTL.
 */
import { get } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { deliver, expectFailure, rememberBrowser, sessionCookieOf, type Service, withService } from './support.ts';
import { followAuthorization } from '../support/oauth-provider/follow-authorization.ts';

let service: Service;
withService((started) => {
  service = started;
});

/** What the store holds for OAuth states: key-value entries (live ones) and event streams. */
function storedStates(): { pending: number; streams: number } {
  const db = new DatabaseSync(join(service.host.dataDir, 'app.sqlite'), { readOnly: true });
  try {
    const pending = db.prepare("SELECT COUNT(*) AS n FROM app_kv WHERE namespace = 'auth-oauth-state' AND (expires_at IS NULL OR expires_at > ?)").get(Date.now()) as { n: number };
    const streams = db.prepare("SELECT COUNT(*) AS n FROM app_events WHERE stream_id LIKE 'auth-oauth-state-%'").get() as { n: number };
    return { pending: Number(pending.n), streams: Number(streams.n) };
  } finally {
    db.close();
  }
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * GET start with exactly these headers. Not fetch(): undici sets `Sec-Fetch-Mode: cors` on every
 * request itself, as a browser's fetch() would.
 */
function getStart(headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(startUrl(), { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) out.append(name, v);
        resolve({ status: res.statusCode!, headers: out, body });
      });
    }).on('error', reject);
  });
}

const startUrl = () => `${service.host.url}/api/auth/oauth/provider_a/start?next=%2Fdashboard`;
const IMAGE = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image', accept: 'image/avif,image/webp,*/*' };
const LINK = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' };

describe('GET /api/auth/oauth/<provider>/start from another site', () => {
  it('an <img> (cross-site, no-cors, image) → 403 forbidden, no state, no binding cookie', async () => {
    const before = storedStates();
    const page = await getStart(IMAGE);
    expect(page.status).toBe(403);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.getSetCookie()).toEqual([]);
    // The same request asking for JSON gets the envelope with its reason.
    const json = await getStart({ ...IMAGE, accept: 'application/json' });
    expect(json.status).toBe(403);
    expect(JSON.parse(json.body)).toMatchObject({ error: { code: 'forbidden', reason: 'oauth_start_cross_site' } });
    // A fetch() from another site, and a navigation inside an iframe, are refused alike.
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
    ])
      expect((await getStart(headers)).status).toBe(403);
    expect(storedStates()).toEqual(before);
    expect(
      service.host
        .logs()
        .filter((l) => l['reason'] === 'oauth_start_cross_site')
        .at(-1),
    ).toMatchObject({ level: 'info', code: 'forbidden' });
  });

  it('a link from another site (a top-level navigation) starts and completes a sign-in; no event stream is left', async () => {
    const before = storedStates();
    const response = await getStart(LINK);
    expect(response.status).toBe(302);
    const location = response.headers.get('location')!;
    rememberBrowser(new Response(null, { headers: response.headers }), location);
    service.secretsSeen.add(new URL(location).searchParams.get('state')!);
    expect(storedStates()).toEqual({ pending: before.pending + 1, streams: 0 });

    const callback = await followAuthorization(location);
    const done = await deliver(callback.target, callback.method, callback.params);
    expect(done.status).toBe(302);
    expect(sessionCookieOf(done)).toBeDefined();
    // Consumed: the record is gone (its used mark stays until it expires); still no stream.
    expect(storedStates()).toEqual({ pending: before.pending, streams: 0 });
    await expectFailure(await deliver(callback.target, callback.method, callback.params, true), 409, 'conflict', 'oauth_state_reused');
  });

  it('clients without Fetch Metadata (curl, older browsers) still start', async () => {
    expect((await getStart({})).status).toBe(302);
    expect(storedStates().streams).toBe(0);
  });
});
