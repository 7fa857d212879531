/** Bounded memo of facts that stay true (immutable files, lower bounds); cleared wholesale when full (simple and always correct). */
export class Memo<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity = 4096) {
    this.#capacity = capacity;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): void {
    if (this.#map.size >= this.#capacity && !this.#map.has(key)) this.#map.clear();
    this.#map.set(key, value);
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
