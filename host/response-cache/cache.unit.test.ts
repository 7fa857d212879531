/** The response cache's rules over a scripted store read: what is stored, for whom, and when it holds. */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostLogger } from '../log.ts';
import type { StreamHead } from '../storage/stream-heads.ts';
import type { FieldEntry } from '../wasi/http-fields.ts';
import { ResponseCache, type CacheOptions } from './cache.ts';
import type { CacheRequest } from './key.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const silent: HostLogger = { log: () => undefined };
const DEP = 'stream-a@3.17.1700000000000';
const AT_DEP: StreamHead = { revision: 3n, sequence: 17n, recordedAt: 1_700_000_000_000n };

function request(target: string, headers: Record<string, string> = {}, method = 'GET'): CacheRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, target, authority: 'example.test', header: (name) => lower[name] };
}

function fields(headers: Record<string, string>): FieldEntry[] {
  return Object.entries(headers).map(([name, value]) => [name.toLowerCase(), encoder.encode(value)]);
}

const cacheable = (extra: Record<string, string> = {}) =>
  fields({ 'content-type': 'application/json', 'cache-control': 'no-store', 'surrogate-control': 'max-age=60', 'x-app-cache-deps': DEP, ...extra });

let caches: ResponseCache[] = [];
afterEach(() => {
  for (const c of caches) c.close();
  caches = [];
});

function makeCache(options: Partial<CacheOptions> & { heads?: () => StreamHead[] | Promise<StreamHead[]> } = {}): ResponseCache {
  const heads = options.heads ?? (() => [AT_DEP]);
  const cache = new ResponseCache({ maxEntries: 100, maxBytes: 1 << 20, streamHeads: () => heads(), logger: silent, generation: 'g', ...options });
  caches.push(cache);
  return cache;
}

/** Runs one guest response through `admit` and its capture, as host/http/exchange.ts does. */
function respond(cache: ResponseCache, req: CacheRequest, headers: FieldEntry[], body = '{"count":1}', status = 200) {
  const admitted = cache.admit(req, status, headers);
  admitted.capture?.write(encoder.encode(body));
  admitted.capture?.end();
  return admitted;
}

describe('ResponseCache.admit()', () => {
  it('strips Surrogate-Control and the dependency header from every response, stored or not', () => {
    const cache = makeCache();
    for (const status of [200, 404]) {
      const names = respond(cache, request('/a'), cacheable(), 'x', status).headers.map(([n]) => n);
      expect(names).not.toContain('surrogate-control');
      expect(names).not.toContain('x-app-cache-deps');
      expect(names).toContain('cache-control');
    }
  });

  it('stores a marked 200 GET and answers the next GET and HEAD from it, with a strong ETag', async () => {
    const cache = makeCache();
    const { headers } = respond(cache, request('/a?x=1'), cacheable());
    const etag = decoder.decode(headers.find(([n]) => n === 'etag')![1]);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    for (const method of ['GET', 'HEAD']) {
      const found = cache.lookup(request('/a?x=1', {}, method));
      expect(found?.entry.body.toString()).toBe('{"count":1}');
      expect(found?.entry.etag).toBe(etag);
      expect(await cache.validate(found!.key, found!.entry)).toBe(true);
    }
    expect(cache.lookup(request('/a?x=2'))).toBeUndefined();
  });

  it('never stores Set-Cookie, private, no-store for surrogates, unmarked, non-200 or non-GET responses', () => {
    const cache = makeCache();
    respond(cache, request('/1'), cacheable({ 'set-cookie': 'sid=secret' }));
    respond(cache, request('/2'), cacheable({ 'cache-control': 'private' }));
    respond(cache, request('/3'), cacheable({ 'surrogate-control': 'no-store, max-age=60' }));
    respond(cache, request('/4'), fields({ 'content-type': 'text/plain' }));
    respond(cache, request('/5'), cacheable(), 'gone', 404);
    respond(cache, request('/6', {}, 'HEAD'), cacheable());
    respond(cache, request('/7'), cacheable({ vary: '*' }));
    respond(cache, request('/8'), cacheable({ 'x-app-cache-deps': 'not a dependency' }));
    respond(cache, request('/9'), fields({ 'surrogate-control': 'max-age=60' })); // no deps, not immutable
    respond(cache, request('/10'), cacheable({ 'surrogate-control': 'max-age=60;other-surrogate' }));
    expect(cache.stats.stored).toBe(0);
  });

  it('keeps an immutable response without dependencies, and serves it without a store read', async () => {
    let reads = 0;
    const cache = makeCache({ heads: () => (reads++, []) });
    respond(cache, request('/pkg/app.1.js'), fields({ 'cache-control': 'public, max-age=31536000, immutable', etag: '"1"', 'surrogate-control': 'max-age=31536000' }), 'js');
    const found = cache.lookup(request('/pkg/app.1.js'))!;
    expect(found.entry.etag).toBe('"1"');
    expect(await cache.validate(found.key, found.entry)).toBe(true);
    expect(reads).toBe(0);
  });

  it('does not store the response to a request with a cookie or Authorization unless it varies on that field', () => {
    const cache = makeCache();
    respond(cache, request('/me', { cookie: 'sid=a' }), cacheable());
    respond(cache, request('/me', { authorization: 'Bearer a' }), cacheable());
    expect(cache.stats.stored).toBe(0);
    respond(cache, request('/me', { cookie: 'sid=a' }), cacheable({ vary: 'Cookie' }), 'user a');
    expect(cache.stats.stored).toBe(1);
  });
});

describe('ResponseCache.lookup(): Vary and credentials', () => {
  it('serves a cookie-varying response only to the same cookie', () => {
    const cache = makeCache();
    respond(cache, request('/me', { cookie: 'sid=a' }), cacheable({ vary: 'cookie' }), 'user a');
    expect(cache.lookup(request('/me', { cookie: 'sid=a' }))?.entry.body.toString()).toBe('user a');
    expect(cache.lookup(request('/me', { cookie: 'sid=b' }))).toBeUndefined();
    expect(cache.lookup(request('/me'))).toBeUndefined();
  });

  it('does not answer a request with a cookie from a response that did not vary on it', () => {
    const cache = makeCache();
    respond(cache, request('/view'), cacheable());
    expect(cache.lookup(request('/view'))).toBeDefined();
    expect(cache.lookup(request('/view', { cookie: 'sid=b' }))).toBeUndefined();
    expect(cache.lookup(request('/view', { authorization: 'Basic eDp5' }))).toBeUndefined();
  });

  it('keys variants by the Vary fields, an absent field apart from an empty one', () => {
    const cache = makeCache();
    respond(cache, request('/n', { 'accept-language': 'de' }), cacheable({ vary: 'Accept-Language' }), 'de');
    respond(cache, request('/n', { 'accept-language': '' }), cacheable({ vary: 'Accept-Language' }), 'empty');
    respond(cache, request('/n'), cacheable({ vary: 'Accept-Language' }), 'none');
    expect(cache.lookup(request('/n', { 'accept-language': 'de' }))?.entry.body.toString()).toBe('de');
    expect(cache.lookup(request('/n', { 'accept-language': '' }))?.entry.body.toString()).toBe('empty');
    expect(cache.lookup(request('/n'))?.entry.body.toString()).toBe('none');
    expect(cache.lookup(request('/n', { 'accept-language': 'fr' }))).toBeUndefined();
  });

  it('bypasses Range requests and non-GET/HEAD methods', () => {
    const cache = makeCache();
    respond(cache, request('/r'), cacheable());
    expect(cache.lookup(request('/r', { range: 'bytes=0-1' }))).toBeUndefined();
    expect(cache.lookup(request('/r', {}, 'POST'))).toBeUndefined();
  });

  it('lets an entry expire after the surrogate max-age', () => {
    let now = 1_000;
    const cache = makeCache({ now: () => now });
    respond(cache, request('/t'), cacheable({ 'surrogate-control': 'max-age=2' }));
    now += 1_999;
    expect(cache.lookup(request('/t'))).toBeDefined();
    now += 1;
    expect(cache.lookup(request('/t'))).toBeUndefined();
  });
});

describe('ResponseCache.validate()', () => {
  it('drops the entry when a stream moved (revision, sequence or time), counting an invalidation', async () => {
    for (const moved of [
      { ...AT_DEP, revision: 4n },
      { ...AT_DEP, sequence: 18n },
      { ...AT_DEP, recordedAt: 1n },
    ]) {
      let head = AT_DEP;
      const cache = makeCache({ heads: () => [head] });
      respond(cache, request('/v'), cacheable());
      head = moved;
      const found = cache.lookup(request('/v'))!;
      expect(await cache.validate(found.key, found.entry)).toBe(false);
      expect(cache.lookup(request('/v'))).toBeUndefined();
      expect(cache.stats.invalidations).toBe(1);
    }
  });

  it('misses, keeping nothing stale, when the store read fails (sync or async)', async () => {
    for (const heads of [
      () => {
        throw new Error('down');
      },
      () => Promise.reject(new Error('down')),
    ]) {
      const cache = makeCache({ heads });
      respond(cache, request('/v'), cacheable());
      const found = cache.lookup(request('/v'))!;
      expect(await cache.validate(found.key, found.entry)).toBe(false);
      expect(cache.stats.validationErrors).toBe(1);
    }
  });

  it('derives the ETag from the dependencies and the generation', () => {
    const etagOf = (generation: string, deps: string) => {
      const cache = makeCache({ generation });
      return decoder.decode(respond(cache, request('/e'), cacheable({ 'x-app-cache-deps': deps })).headers.find(([n]) => n === 'etag')![1]);
    };
    expect(etagOf('g', DEP)).toBe(etagOf('g', DEP));
    expect(etagOf('g', DEP)).not.toBe(etagOf('g', 'stream-a@4.18.1700000000001'));
    expect(etagOf('g', DEP)).not.toBe(etagOf('h', DEP));
  });
});

describe('ResponseCache bounds (LRU)', () => {
  it('holds at most maxEntries, evicting the least recently used', () => {
    const cache = makeCache({ maxEntries: 2 });
    respond(cache, request('/1'), cacheable());
    respond(cache, request('/2'), cacheable());
    cache.lookup(request('/1')); // /1 is now the most recent
    respond(cache, request('/3'), cacheable());
    expect(cache.stats.entries).toBe(2);
    expect(cache.lookup(request('/1'))).toBeDefined();
    expect(cache.lookup(request('/2'))).toBeUndefined();
    expect(cache.lookup(request('/3'))).toBeDefined();
  });

  it('holds at most maxBytes and refuses a body that can never fit', () => {
    const cache = makeCache({ maxBytes: 3100 }); // two bodies of 1000 bytes and their overhead
    for (let i = 0; i < 5; i++) respond(cache, request(`/${i}`), cacheable(), 'x'.repeat(1000));
    expect(cache.stats.bytes).toBeLessThanOrEqual(3100);
    expect(cache.stats.entries).toBe(2);
    respond(cache, request('/big'), cacheable(), 'x'.repeat(5000));
    expect(cache.lookup(request('/big'))).toBeUndefined();
  });

  it('drops a body whose capture was aborted (client gone, trailers)', () => {
    const cache = makeCache();
    const { capture } = cache.admit(request('/a'), 200, cacheable());
    capture?.write(encoder.encode('half'));
    capture?.abort();
    capture?.end();
    expect(cache.lookup(request('/a'))).toBeUndefined();
  });
});

describe('ResponseCache request collapsing', () => {
  it('lets a miss wait for the run filling its target, only one fill per target, none for credentials or other methods', async () => {
    const cache = makeCache();
    expect(cache.pendingFill(request('/v'))).toBeUndefined();
    const done = cache.beginFill(request('/v'));
    const second = cache.beginFill(request('/v'));
    const waiting = cache.pendingFill(request('/v'));
    expect(waiting).toBeDefined();
    expect(cache.pendingFill(request('/v', {}, 'HEAD'))).toBe(waiting);
    expect(cache.pendingFill(request('/v', { cookie: 'sid=a' }))).toBeUndefined();
    expect(cache.pendingFill(request('/v', {}, 'POST'))).toBeUndefined();
    expect(cache.pendingFill(request('/other'))).toBeUndefined();
    second(); // not the filler: changes nothing
    expect(cache.pendingFill(request('/v'))).toBe(waiting);
    done();
    await waiting;
    expect(cache.pendingFill(request('/v'))).toBeUndefined();
  });
});
