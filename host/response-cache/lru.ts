/**
 * A bounded least-recently-used map: at most `maxEntries` values and `maxBytes` of their sizes.
 * A Map keeps insertion order, so re-inserting on use makes its first key the least recent.
 */
export class Lru<V extends { readonly size: number }> {
  readonly #map = new Map<string, V>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxEntries: number, maxBytes: number) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  get entries(): number {
    return this.#map.size;
  }
  get bytes(): number {
    return this.#bytes;
  }

  /** The value, marked most recently used. */
  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** Stores `value` (replacing any under `key`), evicting the least recent until within bounds. Returns false if it can never fit. */
  set(key: string, value: V): boolean {
    this.delete(key);
    if (value.size > this.#maxBytes || this.#maxEntries < 1) return false;
    this.#map.set(key, value);
    this.#bytes += value.size;
    while (this.#map.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#map.keys().next().value as string;
      this.delete(oldest);
    }
    return true;
  }

  delete(key: string): boolean {
    const value = this.#map.get(key);
    if (value === undefined) return false;
    this.#map.delete(key);
    this.#bytes -= value.size;
    return true;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }
}
