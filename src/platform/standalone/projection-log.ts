/**
 * The projection store over files (format in docs/wasmtime.md, "The standalone variant and its file store").
 *
 * Truth: `projections/log/<n>` — one immutable file per successful commit (projection, next,
 * changes), numbered 1, 2, 3… with no gaps. A writer finds the last file N, checks
 * `checkpoint(projection) == expected` as of N, and publishes `projections/log/<N+1>`
 * exclusively; a taken name means another commit got in first, so it re-reads and re-checks. A
 * `kill -9` leaves the whole commit or none of it.
 *
 * Derived (rebuildable): an index with one directory per document and one per projection, each
 * holding immutable numbered entries (a document's body and version or its deletion; a
 * projection's checkpoint), stamped with the commit and change they come from. Every commit but
 * the newest is fully indexed: a writer indexes commit N before it can publish N+1 (idempotent, so
 * any caller may finish a killed writer's work), and every call indexes the newest commit it finds.
 * An instance remembers the newest entry of the keys it touched (at most ENTRY_MEMO) and reads
 * every later commit to learn which keys changed, so a remembered key costs no file operation
 * until a commit touches it, and any other costs a probe and a read, whatever the number of documents.
 *
 * Compaction (`compact`, run by maintenance) keeps what is needed and drops what was written over:
 * a commit older than the newest becomes a tombstone (its name stays, so a late writer
 * still finds it taken; its changes go, so no old document body stays in the log), and in each
 * document's directory only the newest entry stays (the tip hint names it first). An instance that
 * follows the log onto a tombstone forgets what it remembered and probes from there.
 *
 * Then the tombstones are folded: `projections/log/1` becomes a range standing for commits 1 to
 * N-1 (N the newest; `through`, also in `projections/folded`, the small file every call reads),
 * commit N-1 stays as it is (its name taken), and the files between are deleted in ascending
 * order after the range is written. The log is then at most three files.
 * The head is found from the range's end when the head hint is behind it, and an instance that
 * finds the next commit missing while the range reaches past it (the fold deleted it) forgets and
 * finds the head again; one whose remembered range end changed forgets too. A late writer (one that
 * found the head, then stalled while later commits were published and folded) may find a deleted
 * name free: after publishing, a writer whose number the range now covers while the file still
 * holds its own commit takes it back and tries again (a commit on the chain is a tombstone before
 * any range covers it). A document directory whose newest entry is a deletion folded with the
 * log is deleted whole; a writer checks that a remembered entry still exists before writing after
 * it, and numbers a deleted directory's entries from 1 again.
 *
 * The first version of this store folded every document into one snapshot that each commit
 * rewrote and each instance kept in memory: with one document per session that grew with every
 * sign-in (docs/memory.md, cause 6). A directory written that way is indexed once (#upgrade).
 */
import type { DocumentChange, DocumentKey, ProjectionStore, StoredDocument } from '../ports.ts';
import { checkLimit, checkName, FileStoreFailure } from './failure.ts';
import type { FileSystem } from './file-system.ts';
import { readHint, writeHint } from './hints.ts';
import { Memo } from './memo.ts';
import { decodeJson, encodeJson, encodeText, hashed, padded, sameBytes } from './names.ts';
import { whileCompacting } from './compaction-lock.ts';
import { compareCodePoints } from '../code-point-order.ts';

interface CommitFile {
  projection: string;
  next: string;
  changes: DocumentChange[];
  /** A compacted commit: its changes are in the index, no longer here. */
  compacted?: true;
  /** Commit 1 as the range of folded commits: the last one it stands for. */
  through?: string;
}

/** Where an entry came from: change `change` of commit `commit` (a checkpoint uses the change count). */
interface Position {
  commit: string;
  change: number;
}

type DocumentEntry = Position & ({ id: string; version: string; body: string } | { id: string; deleted: true });
type CheckpointEntry = Position & { next: string };

const LOG = 'projections/log';
const RANGE = `${LOG}/${padded(1n)}`;
const FOLD_LOCK = 'projections/fold.lock';
/** The range's end, as a number every call reads (commit 1 itself may be large until the first fold). */
const FOLDED = 'projections/folded';
const HEAD_HINT = 'projections/head';
/** Present in every directory whose commits are all indexed by this format (written before commit 1). */
const INDEXED_MARKER = 'projections/indexed';
/** The single-snapshot format's cache, removed once its log is indexed. */
const OLD_SNAPSHOT = 'projections/snapshot';
const documentsDir = (collection: string) => `projections/documents/${hashed(collection)}`;
const documentDir = (key: DocumentKey) => `${documentsDir(key.collection)}/${hashed(key.id)}`;
const checkpointDir = (projection: string) => `projections/checkpoints/${hashed(projection)}`;

const MAX_RACES = 10_000;
/** A reader that walked this many commits or entries past a hint refreshes it. */
const HINT_REFRESH_STEPS = 2;
/** Writers refresh a hint at every this-many-th commit or entry: fresh instances probe at most this far, writers rarely pay a rename. */
const HINT_EVERY = 8n;
/** Keys whose newest entry an instance remembers (a session list document is at most ~10 KiB). */
const ENTRY_MEMO = 1024;
/** An instance this many commits behind starts again from the head hint instead of reading each one. */
const FOLLOW_LIMIT = 64;
/**
 * Commits compaction leaves whole: the newest, which may not be indexed yet (every older one is).
 * A late writer still finds an older name taken; a reader following onto a tombstone re-probes.
 */
const KEEP_COMMITS = 1n;

const isBefore = (a: Position, b: Position) => {
  const ca = BigInt(a.commit);
  const cb = BigInt(b.commit);
  return ca < cb || (ca === cb && a.change < b.change);
};

interface Latest<T> {
  n: bigint;
  entry: T;
  /**
   * Still the newest: the instance reads every commit after it saw the entry, and a commit that
   * touches the key clears this (then `n` is only a lower bound to probe from).
   */
  current: boolean;
}

export class FileProjectionStore implements ProjectionStore {
  readonly #fs: FileSystem;
  /** directory → its newest entry known (entries are immutable; only newer ones can appear) */
  readonly #latest = new Memo<string, Latest<Position>>(ENTRY_MEMO);
  readonly #indexed = new Memo<bigint, true>();
  /** The newest commit this instance has read (it reads every one after the first it saw). */
  #head: bigint | undefined;
  /** The folded range's end as last seen. */
  #through = 0n;
  #checkedFormat = false;
  readonly #now: () => number;

  constructor(fs: FileSystem, now: () => number = () => Date.now()) {
    this.#fs = fs;
    this.#now = now;
  }

  /** Forgets everything remembered (after this store deleted the files). */
  forget(): void {
    this.#latest.clear();
    this.#indexed.clear();
    this.#head = undefined;
    this.#through = 0n;
    this.#checkedFormat = false;
  }

  checkpoint(projection: string): bigint {
    checkName('projection', projection);
    this.#sync();
    return this.#checkpoint(projection);
  }

  commit(projection: string, expected: bigint, next: bigint, changes: DocumentChange[]): boolean {
    checkName('projection', projection);
    if (next < expected) throw FileStoreFailure.invalid('checkpoints never move back: next must not be less than expected');
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
      const head = this.#sync();
      if (this.#checkpoint(projection) !== expected) return false;
      if (head === 0n) this.#fs.publish(INDEXED_MARKER, encodeText('1'));
      const number = head + 1n;
      const path = `${LOG}/${padded(number)}`;
      const bytes = encodeJson(file);
      if (this.#fs.publish(path, bytes)) {
        if (this.#foldedThrough() >= number && sameBytes(this.#fs.read(path), bytes)) {
          // A late writer on a name the fold deleted (see above): take it back, find the head again.
          this.#fs.remove(path);
          this.forget();
          continue;
        }
        this.#head = number;
        this.#index(number, file);
        if (number % HINT_EVERY === 0n) writeHint(this.#fs, HEAD_HINT, number);
        return true;
      }
    }
    throw FileStoreFailure.unavailable('projection commit kept losing races');
  }

  getDocument(key: DocumentKey): StoredDocument | undefined {
    checkName('collection', key.collection);
    checkName('document id', key.id);
    this.#sync();
    return this.#document(key.collection, documentDir(key));
  }

  /** Lists the collection's directory: a full scan, for operator tools rather than the request path. */
  listDocuments(collection: string, afterId: string | undefined, limit: number): StoredDocument[] {
    checkName('collection', collection);
    checkLimit(limit);
    this.#sync();
    const dir = documentsDir(collection);
    const out: StoredDocument[] = [];
    for (const name of this.#fs.list(dir)) {
      const doc = this.#document(collection, `${dir}/${name}`);
      if (doc && (afterId === undefined || compareCodePoints(doc.id, afterId) > 0)) out.push(doc);
    }
    return out.sort((a, b) => compareCodePoints(a.id, b.id)).slice(0, limit);
  }

  #checkpoint(projection: string): bigint {
    const latest = this.#latestEntry<CheckpointEntry>(checkpointDir(projection));
    return latest ? BigInt(latest.entry.next) : 0n;
  }

  #document(collection: string, dir: string): StoredDocument | undefined {
    const entry = this.#latestEntry<DocumentEntry>(dir)?.entry;
    if (!entry || 'deleted' in entry) return undefined;
    return { collection, id: entry.id, body: entry.body, version: BigInt(entry.version) };
  }

  /**
   * Finds the newest commit (probing forward from what this instance or the head hint knows) and
   * indexes it, so every commit up to the returned one is indexed.
   */
  #sync(): bigint {
    if (!this.#checkedFormat) this.#upgrade();
    const through = this.#foldedThrough();
    if (through !== this.#through) {
      // A fold deleted commits and maybe document directories: nothing remembered is sure.
      this.#latest.clear();
      this.#head = undefined;
      this.#through = through;
    }
    // Remembered entries must hear of every later commit that touches their key, so a following
    // instance reads each new commit; one that remembers nothing only needs to find the end.
    let following = this.#head !== undefined;
    let head = this.#head ?? this.#follow(this.#hintedHead());
    let newest: CommitFile | undefined;
    let steps = 0;
    for (;;) {
      const path = `${LOG}/${padded(head + 1n)}`;
      if (following && steps === FOLLOW_LIMIT) {
        const hinted = this.#hintedHead();
        if (hinted > head + 1n) {
          head = this.#follow(hinted);
          following = false;
          newest = undefined;
          continue;
        }
      }
      if (following) {
        const bytes = this.#fs.read(path);
        if (!bytes && this.#foldedThrough() > head) {
          // Folded meanwhile: the next commit's file is gone, the head is further.
          this.#through = this.#foldedThrough();
          head = this.#follow(this.#hintedHead());
          following = false;
          newest = undefined;
          continue;
        }
        if (!bytes) break;
        newest = decodeJson<CommitFile>(bytes);
        if (newest.compacted) {
          // What this commit changed is gone from it: forget everything, and probe from here on.
          this.#follow(head);
          following = false;
          newest = undefined;
          continue;
        }
        for (const dir of touchedDirs(newest)) this.#stale(dir);
      } else {
        if (!this.#fs.exists(path)) break;
        newest = undefined;
      }
      head++;
      steps++;
    }
    if (head > 0n) this.#index(head, newest);
    if (steps >= HINT_REFRESH_STEPS) writeHint(this.#fs, HEAD_HINT, head);
    this.#head = head;
    return head;
  }

  /** Starts following the log at `head`, forgetting what was remembered before. */
  #follow(head: bigint): bigint {
    this.#latest.clear();
    return head;
  }

  #hintedHead(): bigint {
    // Below the range's end, names are deleted: start there (its last commit's file stays).
    const floor = this.#foldedThrough();
    let head = readHint(this.#fs, HEAD_HINT);
    if (head <= floor) return floor;
    // A hint can only be ahead after a reset that raced a writer; be exact anyway.
    while (head > floor && !this.#fs.exists(`${LOG}/${padded(head)}`)) head--;
    return head;
  }

  /** The last commit the folded range stands for (0 before any fold). */
  #foldedThrough(): bigint {
    return readHint(this.#fs, FOLDED);
  }

  #stale(dir: string): void {
    const known = this.#latest.get(dir);
    if (known) known.current = false;
  }

  /** A directory written by the single-snapshot format (a log but no marker): index its log, in order, once. */
  #upgrade(): void {
    if (!this.#fs.exists(INDEXED_MARKER) && this.#fs.exists(`${LOG}/${padded(1n)}`)) {
      // Concurrent upgraders are safe: each indexes in log order, and indexing is idempotent.
      for (let n = 1n; this.#fs.exists(`${LOG}/${padded(n)}`); n++) this.#index(n);
      this.#fs.publish(INDEXED_MARKER, encodeText('1'));
      this.#fs.remove(OLD_SNAPSHOT);
    }
    this.#checkedFormat = true;
  }

  /** Writes commit `number`'s entries, in order (idempotent: entries already there are skipped). */
  #index(number: bigint, known?: CommitFile): void {
    if (this.#indexed.get(number)) return;
    const file = known ?? this.#readCommit(number);
    const commit = number.toString();
    file.changes.forEach((change, i) => {
      const position = { commit, change: i };
      this.#record<DocumentEntry>(documentDir(change.val), position, (previous) => {
        const live = previous && !('deleted' in previous) ? previous : undefined;
        if (change.tag === 'delete') return live ? { ...position, id: change.val.id, deleted: true } : undefined;
        const version = live ? BigInt(live.version) + 1n : 1n;
        return { ...position, id: change.val.id, version: version.toString(), body: change.val.body };
      });
    });
    const position = { commit, change: file.changes.length };
    this.#record<CheckpointEntry>(checkpointDir(file.projection), position, () => ({ ...position, next: file.next }));
    this.#indexed.set(number, true);
  }

  /**
   * Appends the entry `make` derives from the directory's newest one, unless an entry at or after
   * `position` is already there (another caller indexed it). `make` answering undefined records
   * nothing (deleting a document that does not exist). A remembered newest entry is tried without
   * probing: entries are numbered without gaps, so a free next name proves it is still the newest.
   */
  #record<T extends Position>(dir: string, position: Position, make: (previous: T | undefined) => T | undefined): void {
    let latest = this.#latest.get(dir) as Latest<T> | undefined;
    // A directory deleted by a fold numbers from 1 again: never write after an entry that is gone.
    if (latest?.current && !this.#fs.exists(`${dir}/${padded(latest.n)}`)) {
      this.#latest.delete(dir);
      latest = undefined;
    }
    for (let race = 0; race < MAX_RACES; race++) {
      if (!latest?.current) latest = this.#latestEntry<T>(dir);
      if (latest && !isBefore(latest.entry, position)) return;
      const entry = make(latest?.entry);
      if (!entry) return;
      const n = (latest?.n ?? 0n) + 1n;
      if (this.#fs.publish(`${dir}/${padded(n)}`, encodeJson(entry))) {
        this.#latest.set(dir, { n, entry, current: true });
        if (n % HINT_EVERY === 0n) writeHint(this.#fs, `${dir}/tip`, n);
        return;
      }
      // Someone else wrote entry n (another caller indexing the same commit): probe.
      this.#stale(dir);
      latest = undefined;
    }
    throw FileStoreFailure.unavailable('projection index kept losing races');
  }

  /**
   * The directory's newest entry: the remembered one while no commit since touched the key, else
   * probing forward from what this instance knows or the tip hint.
   */
  #latestEntry<T extends Position>(dir: string): Latest<T> | undefined {
    const known = this.#latest.get(dir) as Latest<T> | undefined;
    if (known?.current) return known;
    // The tip first when it is ahead: compaction removes the entries between (see above).
    const tip = readHint(this.#fs, `${dir}/tip`);
    let n = known !== undefined && known.n > tip ? known.n : tip;
    let steps = 0;
    while (this.#fs.exists(`${dir}/${padded(n + 1n)}`)) {
      n++;
      steps++;
    }
    if (known && known.n === n) {
      known.current = true;
      return known;
    }
    let bytes = n > 0n ? this.#fs.read(`${dir}/${padded(n)}`) : undefined;
    // A tip can only be ahead of the entries after a reset that raced a writer; be exact anyway.
    while (n > 0n && !bytes) bytes = this.#fs.read(`${dir}/${padded(--n)}`);
    if (!bytes) return undefined;
    const latest: Latest<T> = { n, entry: decodeJson<T>(bytes), current: true };
    this.#latest.set(dir, latest);
    if (steps >= HINT_REFRESH_STEPS) writeHint(this.#fs, `${dir}/tip`, n);
    return latest;
  }

  /** Compaction and the fold (see above); returns how many files it removed or emptied. */
  compact(): number {
    return whileCompacting(this.#fs, FOLD_LOCK, this.#now, () => {
      const head = this.#sync();
      const floor = this.#foldedThrough();
      let compacted = 0;
      for (let n = head - KEEP_COMMITS; n > floor; n--) {
        const path = `${LOG}/${padded(n)}`;
        const bytes = this.#fs.read(path);
        if (!bytes) continue;
        const file = decodeJson<CommitFile>(bytes);
        // Older commits were compacted by an earlier pass.
        if (file.compacted) break;
        this.#fs.replace(path, encodeJson({ projection: file.projection, next: file.next, changes: [], compacted: true } satisfies CommitFile));
        compacted++;
      }
      // Every commit up to `through` is indexed and compacted: fold them (at least one file to delete).
      const through = head - KEEP_COMMITS;
      const folding = through >= 3n && through > floor;
      // A deletion in the newest commit may go too: indexing that commit again records nothing for a
      // document it deletes. Only with a fold, whose new range end makes every instance forget.
      const droppable = folding ? head : 0n;
      for (const parent of ['projections/documents', 'projections/checkpoints']) {
        for (const group of this.#fs.list(parent)) {
          const dirs = parent === 'projections/checkpoints' ? [`${parent}/${group}`] : this.#fs.list(`${parent}/${group}`).map((name) => `${parent}/${group}/${name}`);
          for (const dir of dirs) compacted += this.#compactEntries(dir, parent === 'projections/documents' ? droppable : 0n);
        }
      }
      if (folding) compacted += this.#fold(floor, through);
      return compacted;
    });
  }

  /** Commit 1 becomes the range through `through`; the names between go, in ascending order, after it. */
  #fold(floor: bigint, through: bigint): number {
    const first = this.#readCommit(1n);
    this.#fs.replace(RANGE, encodeJson({ projection: first.projection, next: first.next, changes: [], compacted: true, through: through.toString() } satisfies CommitFile));
    writeHint(this.#fs, FOLDED, through);
    let deleted = 0;
    for (let n = floor >= 2n ? floor : 2n; n < through; n++) if (this.#fs.remove(`${LOG}/${padded(n)}`)) deleted++;
    this.#through = through;
    this.#latest.clear();
    return deleted;
  }

  /**
   * Leaves a directory's newest entry only, naming it in the tip hint before the older ones go; a
   * document deleted by a commit up to `droppable` leaves nothing (see above).
   */
  #compactEntries(dir: string, droppable: bigint): number {
    const numbers = this.#fs
      .list(dir)
      .filter((name) => /^\d+$/.test(name))
      .map(BigInt)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const newest = numbers.at(-1);
    if (newest === undefined) return 0;
    if (droppable > 0n) {
      const bytes = this.#fs.read(`${dir}/${padded(newest)}`);
      const entry = bytes ? decodeJson<DocumentEntry>(bytes) : undefined;
      if (entry && 'deleted' in entry && BigInt(entry.commit) <= droppable) {
        this.#fs.removeTree(dir);
        return numbers.length;
      }
    }
    if (numbers.length === 1) return 0;
    writeHint(this.#fs, `${dir}/tip`, newest);
    for (const n of numbers.slice(0, -1)) this.#fs.remove(`${dir}/${padded(n)}`);
    return numbers.length - 1;
  }

  #readCommit(number: bigint): CommitFile {
    const bytes = this.#fs.read(`${LOG}/${padded(number)}`);
    if (!bytes) throw FileStoreFailure.unavailable(`projection commit ${number} vanished`);
    return decodeJson<CommitFile>(bytes);
  }
}

/** The index directories a commit writes to. */
function touchedDirs(file: CommitFile): string[] {
  return [...file.changes.map((change) => documentDir(change.val)), checkpointDir(file.projection)];
}
