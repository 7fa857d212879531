/** wasi:http/types#fields: an ordered multimap of lower-cased names to byte values. */
import type { FieldEntry } from '../net/field-entry.ts';

export type { FieldEntry };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

type FieldError = { payload: { tag: 'invalid-syntax' | 'forbidden' | 'immutable' } };
const fieldError = (tag: 'invalid-syntax' | 'forbidden' | 'immutable'): FieldError => ({ payload: { tag } });

/** Hop-by-hop headers belong to one connection; the host's HTTP server manages them. */
export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'http2-settings']);

export class Fields {
  #entries: FieldEntry[] = [];
  #immutable = false;

  static fromList(entries: FieldEntry[]): Fields {
    const fields = new Fields();
    for (const [name, value] of entries) fields.append(name, value);
    return fields;
  }

  /** Host-side constructor for request headers and trailers the guest may not change. */
  static frozen(entries: FieldEntry[]): Fields {
    const fields = new Fields();
    fields.#entries = entries.map(([n, v]) => [n.toLowerCase(), v]);
    fields.#immutable = true;
    return fields;
  }

  freeze(): void {
    this.#immutable = true;
  }

  get(name: string): Uint8Array[] {
    const key = name.toLowerCase();
    return this.#entries.filter(([n]) => n === key).map(([, v]) => v);
  }
  has(name: string): boolean {
    const key = name.toLowerCase();
    return this.#entries.some(([n]) => n === key);
  }
  set(name: string, values: Uint8Array[]): void {
    this.#checkWritable(name);
    const key = name.toLowerCase();
    this.#entries = this.#entries.filter(([n]) => n !== key);
    for (const v of values) this.#entries.push([key, v.slice()]);
  }
  delete(name: string): void {
    this.#checkWritable(name);
    const key = name.toLowerCase();
    this.#entries = this.#entries.filter(([n]) => n !== key);
  }
  append(name: string, value: Uint8Array): void {
    this.#checkWritable(name);
    this.#entries.push([name.toLowerCase(), value.slice()]);
  }
  entries(): FieldEntry[] {
    return this.#entries.map(([n, v]) => [n, v]);
  }
  clone(): Fields {
    const copy = new Fields();
    copy.#entries = this.entries();
    return copy;
  }

  #checkWritable(name: string): void {
    if (this.#immutable) throw fieldError('immutable');
    const key = name.toLowerCase();
    if (!TOKEN.test(key)) throw fieldError('invalid-syntax');
    if (HOP_BY_HOP.has(key)) throw fieldError('forbidden');
  }
}
