/**
 * Response heads repeat (a GET answers with the same content-type, cache-control and length again
 * and again), and building wasi:http `fields` from a list costs several times cloning existing
 * ones (the list crosses the component boundary). The cache keeps a template per distinct head
 * and hands out clones, which the spec defines as equal to building from the same entries.
 *
 * A head gets a template only when it is seen a second time, so heads that never repeat (a fresh
 * session cookie, a redirect with a one-time state) cost nothing extra and evict nothing.
 */
export interface Cloneable<T> {
  clone(): T;
  [Symbol.dispose](): void;
}

export class FieldsCache<T extends Cloneable<T>> {
  readonly #templates = new Map<string, T>();
  readonly #seenOnce = new Set<string>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Fields for the head `key` names: a clone of its template, or `build()` the first time. */
  get(key: string, build: () => T): T {
    const template = this.#templates.get(key);
    if (template) return template.clone();
    if (!this.#seenOnce.has(key)) {
      remember(this.#seenOnce, key, this.#capacity);
      return build();
    }
    this.#seenOnce.delete(key);
    const fresh = build();
    if (this.#templates.size >= this.#capacity) {
      const [oldestKey, oldest] = this.#templates.entries().next().value!;
      this.#templates.delete(oldestKey);
      oldest[Symbol.dispose]();
    }
    this.#templates.set(key, fresh);
    return fresh.clone();
  }
}

function remember(keys: Set<string>, key: string, capacity: number): void {
  if (keys.size >= capacity) keys.delete(keys.values().next().value!);
  keys.add(key);
}
