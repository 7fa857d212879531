/**
 * The projection store over files (format in docs/wasmtime.md, "The standalone variant and its file store").
 *
 * Truth: `projections/log/<n>` — one immutable file per successful commit (projection, expected,
 * next, changes), numbered 1, 2, 3… with no gaps. A writer folds the state up to the last file N,
 * checks `checkpoint(projection) == expected` there, and publishes `projections/log/<N+1>`
 * exclusively; a taken name means another commit got in first, so it re-reads and re-checks. The
 * documents and the checkpoint of one commit therefore change together, for every reader, and a
 * `kill -9` leaves the whole commit or none of it.
 *
 * Derived: `projections/snapshot` (the folded state as of some file) so a call reads the snapshot
 * plus a short tail instead of the whole log. It is only a cache: any snapshot is a true
 * statement about a prefix of the log, so racing snapshot writers cannot corrupt anything.
 * An instance also keeps the state it last folded in memory and only folds newer files into it.
 */
import type { DocumentChange, DocumentKey, ProjectionStore, StoredDocument } from '../ports.ts';
import { checkLimit, checkName, FileStoreFailure } from './failure.ts';
import type { FileSystem } from './file-system.ts';
import { decodeJson, encodeJson, padded } from './names.ts';

interface CommitFile {
  projection: string;
  next: string;
  changes: DocumentChange[];
}

interface Snapshot {
  asOf: string;
  checkpoints: Record<string, string>;
  /** key: collection + NUL + id */
  documents: Record<string, { body: string; version: string }>;
}

interface State {
  asOf: bigint;
  checkpoints: Map<string, bigint>;
  documents: Map<string, { body: string; version: bigint }>;
}

const LOG = 'projections/log';
const SNAPSHOT = 'projections/snapshot';
/** Rewrite the snapshot once a read had to fold this many log files (writers also rewrite it after each commit). */
const SNAPSHOT_EVERY = 8;
const MAX_RACES = 10_000;

const docKey = (collection: string, id: string) => `${collection}\u0000${id}`;

function apply(state: State, commit: CommitFile): void {
  state.checkpoints.set(commit.projection, BigInt(commit.next));
  for (const change of commit.changes) {
    const key = docKey(change.val.collection, change.val.id);
    if (change.tag === 'delete') {
      state.documents.delete(key);
    } else {
      const version = (state.documents.get(key)?.version ?? 0n) + 1n;
      state.documents.set(key, { body: change.val.body, version });
    }
  }
}

export class FileProjectionStore implements ProjectionStore {
  readonly #fs: FileSystem;
  #state: State | undefined;

  constructor(fs: FileSystem) {
    this.#fs = fs;
  }

  /** Forgets the state in memory (after this store deleted the files). */
  forget(): void {
    this.#state = undefined;
  }

  checkpoint(projection: string): bigint {
    checkName('projection', projection);
    return this.#load().checkpoints.get(projection) ?? 0n;
  }

  commit(projection: string, expected: bigint, next: bigint, changes: DocumentChange[]): boolean {
    checkName('projection', projection);
    if (next <= expected) throw FileStoreFailure.invalid('checkpoints only move forward: next must be greater than expected');
    for (const change of changes) {
      checkName('collection', change.val.collection);
      checkName('document id', change.val.id);
    }
    const file: CommitFile = {
      projection,
      next: next.toString(),
      changes: changes.map(
        (c): DocumentChange =>
          c.tag === 'put'
            ? { tag: 'put', val: { collection: c.val.collection, id: c.val.id, body: c.val.body } }
            : { tag: 'delete', val: { collection: c.val.collection, id: c.val.id } },
      ),
    };
    for (let race = 0; race < MAX_RACES; race++) {
      const state = this.#load();
      if ((state.checkpoints.get(projection) ?? 0n) !== expected) return false;
      if (this.#fs.publish(`${LOG}/${padded(state.asOf + 1n)}`, encodeJson(file))) {
        // Keep the snapshot at the head, so the next reader folds nothing.
        apply(state, file);
        state.asOf++;
        this.#fs.replace(SNAPSHOT, encodeJson(toSnapshot(state)));
        return true;
      }
    }
    throw FileStoreFailure.unavailable('projection commit kept losing races');
  }

  getDocument(key: DocumentKey): StoredDocument | undefined {
    checkName('collection', key.collection);
    checkName('document id', key.id);
    const doc = this.#load().documents.get(docKey(key.collection, key.id));
    return doc ? { collection: key.collection, id: key.id, body: doc.body, version: doc.version } : undefined;
  }

  listDocuments(collection: string, afterId: string | undefined, limit: number): StoredDocument[] {
    checkName('collection', collection);
    checkLimit(limit);
    const prefix = docKey(collection, '');
    const out: StoredDocument[] = [];
    for (const [key, doc] of this.#load().documents) {
      if (!key.startsWith(prefix)) continue;
      const id = key.slice(prefix.length);
      if (afterId === undefined || id > afterId) out.push({ collection, id, body: doc.body, version: doc.version });
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit);
  }

  /** The state in memory (or the snapshot) plus every log file after it. */
  #load(): State {
    if (this.#state) return this.#foldFrom(this.#state);
    const bytes = this.#fs.read(SNAPSHOT);
    const snapshot = bytes ? decodeJson<Snapshot>(bytes) : undefined;
    const state: State = {
      asOf: snapshot ? BigInt(snapshot.asOf) : 0n,
      checkpoints: new Map(Object.entries(snapshot?.checkpoints ?? {}).map(([name, n]) => [name, BigInt(n)])),
      documents: new Map(Object.entries(snapshot?.documents ?? {}).map(([key, d]) => [key, { body: d.body, version: BigInt(d.version) }])),
    };
    if (snapshot && !this.#fs.exists(`${LOG}/${padded(state.asOf)}`) && state.asOf > 0n) {
      return (this.#state = this.#foldFrom(emptyState())); // a snapshot from before a reset
    }
    return (this.#state = this.#foldFrom(state));
  }

  #foldFrom(state: State): State {
    let folded = 0;
    for (;;) {
      const bytes = this.#fs.read(`${LOG}/${padded(state.asOf + 1n)}`);
      if (!bytes) break;
      apply(state, decodeJson<CommitFile>(bytes));
      state.asOf++;
      folded++;
    }
    if (folded >= SNAPSHOT_EVERY) this.#fs.replace(SNAPSHOT, encodeJson(toSnapshot(state)));
    return state;
  }
}

function emptyState(): State {
  return { asOf: 0n, checkpoints: new Map(), documents: new Map() };
}

function toSnapshot(state: State): Snapshot {
  return {
    asOf: state.asOf.toString(),
    checkpoints: Object.fromEntries([...state.checkpoints].map(([name, n]) => [name, n.toString()])),
    documents: Object.fromEntries([...state.documents].map(([key, d]) => [key, { body: d.body, version: d.version.toString() }])),
  };
}
