/**
 * Where the response cache meets Node's HTTP exchange: `serveFromCache` answers a request from a
 * validated entry (200, HEAD, or 304 to a matching If-None-Match) before any guest runs, and
 * `cacheHook` strips the guest's private cache fields and records a cacheable body as it streams
 * out (host/http/exchange.ts calls it for every guest response, host/net/response-hook.ts).
 */
import type { ServerResponse } from 'node:http';
import type { ResponseHook } from '../net/response-hook.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import type { ResponseCache, CachedResponse } from './cache.ts';
import { PRIVATE_RESPONSE_HEADERS } from './directives.ts';
import type { CacheRequest } from './key.ts';

/** RFC 9110 §15.4.5: the fields a 304 carries that a 200 would have sent. */
const NOT_MODIFIED_FIELDS = new Set(['cache-control', 'content-location', 'expires', 'vary']);

export function cacheRequest(req: NodeRequest): CacheRequest {
  const authority = ('authority' in req && typeof req.authority === 'string' && req.authority) || req.headers.host || '';
  return {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    authority,
    header(name) {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** RFC 9110 §13.1.2: If-None-Match matches `etag` (weak comparison), or is `*`. */
function noneMatch(header: string | undefined, etag: string | undefined): boolean {
  if (header === undefined || etag === undefined) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

function send(req: CacheRequest, res: NodeResponse, entry: CachedResponse): void {
  const plain = res as ServerResponse;
  if (noneMatch(req.header('if-none-match'), entry.etag)) {
    for (const [name, value] of entry.headers) if (NOT_MODIFIED_FIELDS.has(name)) plain.appendHeader(name, value);
    plain.setHeader('etag', entry.etag!);
    plain.writeHead(304);
    plain.end();
    return;
  }
  for (const [name, value] of entry.headers) plain.appendHeader(name, value);
  if (entry.etag !== undefined) plain.setHeader('etag', entry.etag);
  plain.setHeader('content-length', entry.body.byteLength);
  plain.writeHead(200);
  // HEAD: the same fields, no body (RFC 9110 §9.3.2).
  plain.end(req.method === 'HEAD' ? undefined : entry.body);
}

/**
 * Answers `req` from the cache if it can: true when answered (synchronously on SQLite, whose
 * validation read is synchronous), false when the guest must run.
 */
export function serveFromCache(cache: ResponseCache, req: NodeRequest, res: NodeResponse): boolean | Promise<boolean> {
  const request = cacheRequest(req);
  const found = cache.lookup(request);
  if (found === undefined) return false;
  const answer = (valid: boolean): boolean => {
    if (!valid) return false;
    if (res.destroyed) return true; // the client left while the store answered
    if (noneMatch(request.header('if-none-match'), found.entry.etag)) cache.notModified();
    send(request, res, found.entry);
    return true;
  };
  const valid = cache.validate(found.key, found.entry);
  return typeof valid === 'boolean' ? answer(valid) : valid.then(answer);
}

/**
 * The hook for one guest exchange: strips private fields, records a cacheable body. `settled`
 * is called once it is known whether the body will be stored, and after it was (request collapsing).
 */
export function cacheHook(cache: ResponseCache, req: NodeRequest, settled: () => void = () => undefined): ResponseHook {
  const request = cacheRequest(req);
  return {
    head(status, headers) {
      const admitted = cache.admit(request, status, headers);
      const capture = admitted.capture;
      if (capture === undefined) {
        settled();
        return admitted;
      }
      return {
        headers: admitted.headers,
        capture: {
          write: (bytes) => capture.write(bytes),
          end: () => (capture.end(), settled()),
          abort: () => (capture.abort(), settled()),
        },
      };
    },
  };
}

/** How long a miss waits for another request's guest run on the same target before running its own. */
export const COLLAPSE_WAIT_MS = 1_000;

/** Waits for `fill`, at most COLLAPSE_WAIT_MS. */
export function waitForFill(fill: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, COLLAPSE_WAIT_MS);
    timer.unref();
    void fill.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** With the cache off: the guest's private cache fields are still never sent. */
export const stripPrivateFields: ResponseHook = {
  head: (_status, headers) => ({ headers: headers.filter(([name]) => !PRIVATE_RESPONSE_HEADERS.has(name)) }),
};

/** Applies two hooks in order: the second sees the first's headers; the first's capture and the second's adopt both hold. */
export function chainHooks(first: ResponseHook, second: ResponseHook): ResponseHook {
  return {
    head(status, headers, res) {
      const a = first.head(status, headers, res);
      const b = second.head(status, a.headers, res);
      const capture = b.capture ?? a.capture;
      return { ...b, ...(capture ? { capture } : {}) };
    },
  };
}
