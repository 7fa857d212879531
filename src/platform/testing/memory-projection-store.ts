/**
 * In-memory ProjectionStore: checkpoints and documents changed together, atomically, with the
 * WIT rules (checkpoints never move back; a stale `expected` returns false and changes nothing).
 */
import { StoreError } from '../../errors.ts';
import type { DocumentChange, DocumentKey, ProjectionStore, StoredDocument } from '../ports.ts';
import { checkJson, checkLimit, checkName } from './checks.ts';
import type { Faults } from './faults.ts';
import { compareCodePoints } from '../code-point-order.ts';

export class MemoryProjectionStore implements ProjectionStore {
  readonly #checkpoints = new Map<string, bigint>();
  /** collection → id → document */
  readonly #documents = new Map<string, Map<string, StoredDocument>>();
  readonly #faults: Faults;

  constructor(faults: Faults) {
    this.#faults = faults;
  }

  checkpoint(projection: string): bigint {
    this.#faults.enter('checkpoint');
    checkName('projection', projection);
    return this.#checkpoints.get(projection) ?? 0n;
  }

  commit(projection: string, expected: bigint, next: bigint, changes: DocumentChange[]): boolean {
    this.#faults.enter('commit');
    checkName('projection', projection);
    if (next < expected) throw new StoreError('invalid', 'next checkpoint must not be less than expected');
    // Validate everything before writing anything: all or nothing.
    for (const change of changes) {
      checkName('collection', change.val.collection);
      checkName('document id', change.val.id);
      if (change.tag === 'put') checkJson('document body', change.val.body);
    }
    if ((this.#checkpoints.get(projection) ?? 0n) !== expected) return false;
    for (const change of changes) this.#apply(change);
    this.#checkpoints.set(projection, next);
    return true;
  }

  getDocument(key: DocumentKey): StoredDocument | undefined {
    this.#faults.enter('getDocument');
    checkName('collection', key.collection);
    checkName('document id', key.id);
    const document = this.#documents.get(key.collection)?.get(key.id);
    return document ? { ...document } : undefined;
  }

  listDocuments(collection: string, afterId: string | undefined, limit: number): StoredDocument[] {
    this.#faults.enter('listDocuments');
    checkName('collection', collection);
    checkLimit(limit);
    const all = [...(this.#documents.get(collection)?.values() ?? [])];
    return all
      .filter((document) => afterId === undefined || compareCodePoints(document.id, afterId) > 0)
      .sort((a, b) => compareCodePoints(a.id, b.id))
      .slice(0, limit)
      .map((document) => ({ ...document }));
  }

  #apply(change: DocumentChange): void {
    const { collection, id } = change.val;
    const documents = this.#documents.get(collection) ?? new Map<string, StoredDocument>();
    this.#documents.set(collection, documents);
    if (change.tag === 'delete') {
      documents.delete(id);
      return;
    }
    const version = (documents.get(id)?.version ?? 0n) + 1n;
    documents.set(id, { collection, id, body: change.val.body, version });
  }
}
