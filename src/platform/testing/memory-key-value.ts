/** In-memory KeyValue with TTLs measured on the platform's (controllable) clock; expired = absent. */
import { StoreError } from '../../errors.ts';
import type { KeyValue } from '../ports.ts';
import { checkName } from './checks.ts';
import type { Faults } from './faults.ts';

interface Entry {
  value: string;
  /** epoch ms; undefined = never */
  expiresAt: number | undefined;
}

const S64_MIN = -(2n ** 63n);
const S64_MAX = 2n ** 63n - 1n;

export class MemoryKeyValue implements KeyValue {
  readonly #entries = new Map<string, Entry>();
  readonly #faults: Faults;
  readonly #now: () => number;

  constructor(faults: Faults, now: () => number) {
    this.#faults = faults;
    this.#now = now;
  }

  get(namespace: string, key: string): string | undefined {
    this.#faults.enter('get');
    return this.#live(namespace, key)?.value;
  }

  set(namespace: string, key: string, value: string, ttlMs: bigint | undefined): void {
    this.#faults.enter('set');
    const id = this.#id(namespace, key);
    this.#entries.set(id, { value, expiresAt: this.#expiry(ttlMs) });
  }

  take(namespace: string, key: string): string | undefined {
    this.#faults.enter('take');
    const entry = this.#live(namespace, key);
    if (entry) this.#entries.delete(this.#id(namespace, key));
    return entry?.value;
  }

  increment(namespace: string, key: string, delta: bigint, ttlMs: bigint): bigint {
    this.#faults.enter('increment');
    const id = this.#id(namespace, key);
    const entry = this.#live(namespace, key);
    if (entry && !/^-?\d+$/.test(entry.value)) throw new StoreError('invalid', 'entry is not an integer');
    const next = (entry ? BigInt(entry.value) : 0n) + delta;
    if (next < S64_MIN || next > S64_MAX) throw new StoreError('invalid', 'increment overflows s64');
    // An existing entry keeps its expiry; a new one gets `ttlMs`.
    this.#entries.set(id, { value: next.toString(), expiresAt: entry ? entry.expiresAt : this.#expiry(ttlMs) });
    return next;
  }

  delete(namespace: string, key: string): boolean {
    this.#faults.enter('delete');
    const existed = this.#live(namespace, key) !== undefined;
    this.#entries.delete(this.#id(namespace, key));
    return existed;
  }

  /** Every stored key and value, expired ones included, as text (tests search it for what must not be stored). */
  dump(): string {
    return JSON.stringify([...this.#entries]);
  }

  #live(namespace: string, key: string): Entry | undefined {
    const id = this.#id(namespace, key);
    const entry = this.#entries.get(id);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.#now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry;
  }

  #expiry(ttlMs: bigint | undefined): number | undefined {
    if (ttlMs === undefined) return undefined;
    if (ttlMs <= 0n) throw new StoreError('invalid', 'ttl must be positive');
    return this.#now() + Number(ttlMs);
  }

  #id(namespace: string, key: string): string {
    checkName('namespace', namespace);
    checkName('key', key);
    // NUL cannot appear in either part's meaning here, so the pair maps to one unique id.
    return `${namespace}\u0000${key}`;
  }
}
