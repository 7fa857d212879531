/**
 * Key-value over files: `kv/<sha256(namespace)>/<sha256(key)>` holds {value, expiresAt}.
 * - `set` writes a new file and renames it over the old one (readers see old or new, never half);
 * - `take` and `delete` rename the file away first: of racing callers exactly one rename
 *   succeeds, so at most one caller gets a given value;
 * - `increment` is a read-modify-write under a per-key lock file created exclusively; a lock
 *   left by a killed instance is broken after LOCK_STALE_MS.
 * Expired entries behave as absent (and are removed when met, or by `sweepExpired`, which
 * maintenance runs: entries nobody asks about again would otherwise stay).
 */
import type { KeyValue } from '../ports.ts';
import { checkName, FileStoreFailure } from './failure.ts';
import { tempPath, type FileSystem } from './file-system.ts';
import { decodeJson, encodeJson, encodeText, decodeText, hashed } from './names.ts';

interface Entry {
  value: string;
  /** epoch ms, or null for never */
  expiresAt: number | null;
}

const S64_MIN = -(2n ** 63n);
const S64_MAX = 2n ** 63n - 1n;
const LOCK_STALE_MS = 5_000;
const LOCK_WAIT_MS = 10_000;

export class FileKeyValue implements KeyValue {
  readonly #fs: FileSystem;
  readonly #now: () => number;

  constructor(fs: FileSystem, now: () => number) {
    this.#fs = fs;
    this.#now = now;
  }

  get(namespace: string, key: string): string | undefined {
    return this.#live(this.#path(namespace, key))?.value;
  }

  set(namespace: string, key: string, value: string, ttlMs: bigint | undefined): void {
    const path = this.#path(namespace, key);
    this.#fs.replace(path, encodeJson({ value, expiresAt: this.#expiry(ttlMs) } satisfies Entry));
  }

  take(namespace: string, key: string): string | undefined {
    const path = this.#path(namespace, key);
    const moved = tempPath();
    if (!this.#fs.rename(path, moved)) return undefined;
    const entry = this.#parse(this.#fs.read(moved));
    this.#fs.remove(moved);
    return entry && !this.#expired(entry) ? entry.value : undefined;
  }

  delete(namespace: string, key: string): boolean {
    return this.take(namespace, key) !== undefined;
  }

  increment(namespace: string, key: string, delta: bigint, ttlMs: bigint): bigint {
    const path = this.#path(namespace, key);
    return this.#locked(`${path}.lock`, () => {
      const entry = this.#live(path);
      if (entry && !/^-?\d+$/.test(entry.value)) throw FileStoreFailure.invalid('entry is not an integer');
      const next = (entry ? BigInt(entry.value) : 0n) + delta;
      if (next < S64_MIN || next > S64_MAX) throw FileStoreFailure.invalid('increment overflows s64');
      // An existing entry keeps its expiry; a new one gets `ttlMs`.
      const expiresAt = entry ? entry.expiresAt : this.#expiry(ttlMs);
      this.#fs.replace(path, encodeJson({ value: next.toString(), expiresAt } satisfies Entry));
      return next;
    });
  }

  /** Deletes every expired entry; returns how many. An entry set again meanwhile is put back. */
  sweepExpired(): number {
    let removed = 0;
    for (const namespace of this.#fs.list('kv')) {
      for (const name of this.#fs.list(`kv/${namespace}`)) {
        if (name.endsWith('.lock')) continue;
        const path = `kv/${namespace}/${name}`;
        const entry = this.#parse(this.#fs.read(path));
        if (!entry || !this.#expired(entry)) continue;
        const moved = tempPath();
        if (!this.#fs.rename(path, moved)) continue;
        const taken = this.#parse(this.#fs.read(moved));
        // Renewed between the read and the rename: back it goes, unless a newer one is there already.
        if (taken && !this.#expired(taken)) this.#fs.publish(path, encodeJson(taken));
        else removed += 1;
        this.#fs.remove(moved);
      }
    }
    return removed;
  }

  #locked<T>(lock: string, work: () => T): T {
    const deadline = this.#now() + LOCK_WAIT_MS;
    while (!this.#fs.publish(lock, encodeText(String(this.#now())))) {
      const heldSince = this.#fs.read(lock);
      if (heldSince && this.#now() - Number(decodeText(heldSince)) > LOCK_STALE_MS) {
        // Break a lock left by a killed instance: rename it away so only one breaker wins.
        const moved = tempPath();
        if (this.#fs.rename(lock, moved)) this.#fs.remove(moved);
        continue;
      }
      if (this.#now() > deadline) throw FileStoreFailure.unavailable('key-value lock is busy');
      this.#fs.sleep(1);
    }
    try {
      return work();
    } finally {
      this.#fs.remove(lock);
    }
  }

  #live(path: string): Entry | undefined {
    const entry = this.#parse(this.#fs.read(path));
    if (entry && this.#expired(entry)) return undefined;
    return entry;
  }

  #parse(bytes: Uint8Array | undefined): Entry | undefined {
    return bytes ? decodeJson<Entry>(bytes) : undefined;
  }

  #expired(entry: Entry): boolean {
    return entry.expiresAt !== null && entry.expiresAt <= this.#now();
  }

  #expiry(ttlMs: bigint | undefined): number | null {
    if (ttlMs === undefined) return null;
    if (ttlMs <= 0n) throw FileStoreFailure.invalid('ttl must be positive');
    return this.#now() + Number(ttlMs);
  }

  #path(namespace: string, key: string): string {
    checkName('namespace', namespace);
    checkName('key', key);
    return `kv/${hashed(namespace)}/${hashed(key)}`;
  }
}
