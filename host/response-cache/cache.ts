/**
 * The host's response cache: the guest's answers to GET requests that it marked cacheable
 * (directives.ts), kept in a bounded LRU and served again only after one store read confirms
 * that every event-store stream the answer was built from is still at the newest event it was
 * built from. Any difference, any store failure, anything unusual → a miss, and the guest runs.
 * It knows nothing of the application: streams, revisions and HTTP only.
 */
import { createHash } from 'node:crypto';
import type { HostLogger } from '../log.ts';
import { CACHE_DEPS_HEADER } from '../../src/contract/headers.ts';
import { describeError } from '../log.ts';
import type { StreamHead, StreamHeads } from '../storage/stream-heads.ts';
import type { FieldEntry } from '../wasi/http-fields.ts';
import {
  CREDENTIAL_HEADERS,
  formatDependencies,
  listTokens,
  parseDependencies,
  PRIVATE_RESPONSE_HEADERS,
  sameHead,
  SURROGATE_CONTROL,
  surrogateMaxAge,
  type Dependency,
} from './directives.ts';
import { primaryKey, variantKey, type CacheRequest } from './key.ts';
import { Lru } from './lru.ts';

export interface CachedResponse {
  /** response fields to send (no private, hop-by-hop, date or length fields) */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  /** strong entity tag (RFC 9110 §8.8.3), the guest's own if it set one */
  readonly etag: string | undefined;
  /** empty for an immutable response */
  readonly deps: readonly Dependency[];
  readonly expiresAt: number;
  readonly varyNames: readonly string[];
  readonly size: number;
}

export interface CacheOptions {
  maxEntries: number;
  maxBytes: number;
  /** the store's validation read; without it only immutable responses are cached */
  streamHeads: StreamHeads | undefined;
  logger: HostLogger;
  /** identifies the component and host settings a body depends on, so ETags differ across them */
  generation: string;
  now?: () => number;
  /** how often a debug line with the counters is logged (when they moved); 0 or absent: never (the counters are in `stats`) */
  statsIntervalMs?: number;
}

export interface CacheStats {
  hits: number;
  notModified: number;
  misses: number;
  invalidations: number;
  validationErrors: number;
  stored: number;
  entries: number;
  bytes: number;
}

/** The body of one response being recorded while it goes to the client. */
export interface Capture {
  write(bytes: Uint8Array): void;
  /** the body is complete: store it */
  end(): void;
  /** the body did not complete (client gone, guest failed, trailers): drop it */
  abort(): void;
}

/** Largest single body kept (a larger one would evict much for one entry). */
export const MAX_ENTRY_BYTES = 1_048_576;
/** Fixed per-entry overhead counted against the byte bound (key, headers, bookkeeping). */
const ENTRY_OVERHEAD = 512;
const STORED_HEADER_SKIP = new Set(['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'etag']);

const decoder = new TextDecoder();

function fieldValue(headers: readonly FieldEntry[], name: string): string | undefined {
  const values = headers.filter(([n]) => n === name).map(([, value]) => decoder.decode(value));
  return values.length === 0 ? undefined : values.join(', ');
}

export class ResponseCache {
  readonly #entries: Lru<CachedResponse>;
  /** per target: the Vary names of its last stored response (size 1: bounded by count only) */
  readonly #vary: Lru<{ size: number; names: readonly string[] }>;
  readonly #options: CacheOptions;
  readonly #now: () => number;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #fills = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  readonly #counts = { hits: 0, notModified: 0, misses: 0, invalidations: 0, validationErrors: 0, stored: 0 };
  #logged = '';

  constructor(options: CacheOptions) {
    this.#options = options;
    this.#entries = new Lru(options.maxEntries, options.maxBytes);
    this.#vary = new Lru(options.maxEntries, Number.POSITIVE_INFINITY);
    this.#now = options.now ?? Date.now;
    const every = options.statsIntervalMs ?? 0;
    this.#timer = every > 0 ? setInterval(() => this.#logStats(), every).unref() : undefined;
  }

  get stats(): CacheStats {
    return { ...this.#counts, entries: this.#entries.entries, bytes: this.#entries.bytes };
  }

  /** A stored response `req` may be answered with once validated, or undefined (a miss). */
  lookup(req: CacheRequest): { key: string; entry: CachedResponse } | undefined {
    // Not a candidate at all (not counted as a miss): other methods, partial requests.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.header('range') !== undefined) return undefined;
    const names = this.#vary.get(primaryKey(req))?.names;
    const key = names === undefined ? undefined : variantKey(req, names);
    const entry = key === undefined ? undefined : this.#entries.get(key);
    if (key === undefined || entry === undefined) return this.#miss();
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return this.#miss();
    }
    // A user's request is answered only by a response that declared it depends on that user's field.
    if (CREDENTIAL_HEADERS.some((h) => req.header(h) !== undefined && !entry.varyNames.includes(h))) return this.#miss();
    return { key, entry };
  }

  /**
   * Whether `entry` still holds: every dependency at the newest event it was built from. A
   * changed stream drops the entry; a store failure only misses (the guest will report it).
   */
  validate(key: string, entry: CachedResponse): boolean | Promise<boolean> {
    if (entry.deps.length === 0) return this.#hit();
    const read = this.#options.streamHeads;
    if (read === undefined) return this.#failed(new Error('the store has no stream-heads read'));
    let heads: StreamHead[] | Promise<StreamHead[]>;
    try {
      heads = read(entry.deps.map((d) => d.streamId));
    } catch (error) {
      return this.#failed(error);
    }
    const decide = (found: StreamHead[]): boolean => {
      if (found.length === entry.deps.length && entry.deps.every((d, i) => sameHead(d, found[i]!))) return this.#hit();
      this.#entries.delete(key);
      this.#counts.invalidations++;
      this.#counts.misses++;
      return false;
    };
    return Array.isArray(heads) ? decide(heads) : heads.then(decide, (error: unknown) => this.#failed(error));
  }

  /**
   * Request collapsing: while one guest run fills `req`'s target, the next misses on it wait for
   * that run and then validate its entry like any hit, instead of running the guest too. Safe for
   * read-your-writes: what they get is still checked against the store after they arrived.
   * Undefined when nothing is filling (the caller should then `beginFill`), or for a request that
   * carries credentials (it could not use a shared entry anyway).
   */
  pendingFill(req: CacheRequest): Promise<void> | undefined {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    if (CREDENTIAL_HEADERS.some((h) => req.header(h) !== undefined)) return undefined;
    return this.#fills.get(primaryKey(req))?.promise;
  }

  /** Marks a guest run filling `req`'s target; the returned function ends it (idempotent). */
  beginFill(req: CacheRequest): () => void {
    if (req.method !== 'GET' || CREDENTIAL_HEADERS.some((h) => req.header(h) !== undefined)) return () => undefined;
    const key = primaryKey(req);
    if (this.#fills.has(key)) return () => undefined;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    const fill = { promise, resolve };
    this.#fills.set(key, fill);
    return () => {
      if (this.#fills.get(key) === fill) this.#fills.delete(key);
      resolve();
    };
  }

  /** Counts a 304 answered from a validated entry (also counted as a hit). */
  notModified(): void {
    this.#counts.notModified++;
  }

  /**
   * Sees the guest's response head: removes the private fields, and when the response may be
   * stored, adds its ETag and returns the capture that stores the body once it is complete.
   */
  admit(req: CacheRequest, status: number, guestHeaders: FieldEntry[]): { headers: FieldEntry[]; capture?: Capture } {
    const headers = guestHeaders.filter(([name]) => !PRIVATE_RESPONSE_HEADERS.has(name));
    const maxAge = surrogateMaxAge(fieldValue(guestHeaders, SURROGATE_CONTROL));
    if (maxAge === undefined || req.method !== 'GET' || status !== 200 || req.header('range') !== undefined) return { headers };
    if (headers.some(([name]) => name === 'set-cookie')) return { headers };
    const cacheControl = listTokens(fieldValue(headers, 'cache-control'));
    if (cacheControl.includes('private')) return { headers };
    const varyNames = listTokens(fieldValue(headers, 'vary'));
    if (varyNames.includes('*')) return { headers };
    if (CREDENTIAL_HEADERS.some((h) => req.header(h) !== undefined && !varyNames.includes(h))) return { headers };
    const declared = fieldValue(guestHeaders, CACHE_DEPS_HEADER);
    const deps = declared === undefined ? [] : parseDependencies(declared);
    // Without dependencies a response is only cached when it says it never changes (RFC 8246).
    if (deps === undefined || (deps.length === 0 && !cacheControl.includes('immutable'))) return { headers };
    if (deps.length > 0 && this.#options.streamHeads === undefined) return { headers };

    const key = variantKey(req, varyNames);
    let etag = fieldValue(headers, 'etag');
    if (etag === undefined && deps.length > 0) {
      etag = `"${createHash('sha256')
        .update(`${this.#options.generation}\0${key}\0${formatDependencies(deps)}`)
        .digest('base64url')
        .slice(0, 27)}"`;
      headers.push(['etag', new TextEncoder().encode(etag)]);
    }
    const stored = headers.filter(([name]) => !STORED_HEADER_SKIP.has(name)).map(([name, value]) => [name, decoder.decode(value)] as const);
    const chunks: Buffer[] = [];
    let length = 0;
    let open = true;
    const primary = primaryKey(req);
    const expiresAt = this.#now() + maxAge * 1000;
    const capture: Capture = {
      write: (bytes) => {
        if (!open) return;
        length += bytes.byteLength;
        if (length > Math.min(MAX_ENTRY_BYTES, this.#options.maxBytes)) open = false;
        else chunks.push(Buffer.from(bytes)); // a copy: the guest's buffer is reused
      },
      end: () => {
        if (!open) return;
        open = false;
        const body = Buffer.concat(chunks, length);
        const entry: CachedResponse = { headers: stored, body, etag, deps, expiresAt, varyNames, size: body.byteLength + ENTRY_OVERHEAD };
        this.#vary.set(primary, { size: 1, names: varyNames });
        if (this.#entries.set(key, entry)) this.#counts.stored++;
      },
      abort: () => {
        open = false;
      },
    };
    return { headers, capture };
  }

  close(): void {
    clearInterval(this.#timer);
    for (const fill of this.#fills.values()) fill.resolve();
    this.#fills.clear();
    this.#entries.clear();
    this.#vary.clear();
  }

  #hit(): true {
    this.#counts.hits++;
    return true;
  }

  #miss(): undefined {
    this.#counts.misses++;
    return undefined;
  }

  #failed(error: unknown): false {
    this.#counts.validationErrors++;
    this.#counts.misses++;
    this.#options.logger.log('debug', 'response cache validation failed; the guest answers', { code: 'response_cache_validation_failed', error: describeError(error) });
    return false;
  }

  #logStats(): void {
    const stats = this.stats;
    const line = JSON.stringify(stats);
    if (line === this.#logged) return;
    this.#logged = line;
    this.#options.logger.log('debug', 'response cache counters', { code: 'response_cache_stats', ...stats });
  }
}
