/**
 * The event store over files (format in docs/wasmtime.md, "The standalone variant and its file store").
 *
 * Truth: `events/log/<first sequence>` — one immutable commit file per append, holding the whole
 * batch; the next commit's name is `first + count`, so the log is a chain with no gaps. A writer
 * reads the chain to its end (head H), checks the stream's revision as of H and publishes
 * `events/log/<H+1>` exclusively: if the name was free, nothing was committed between its check
 * and its commit (linearizable optimistic concurrency across processes and wasmtime instances);
 * if taken, it re-reads and re-checks. A commit is one link(2) of a complete file, so a `kill -9`
 * leaves either the whole batch or nothing (plus a temporary file).
 *
 * Removing a stream (retention, erasure) replaces each of its commit files with a tombstone: the
 * same name and event count, so the chain keeps its links, and the event types, so the counts
 * stay exact, but no payload or metadata; its revision files go. Readers skip tombstones. A
 * removal writes a new value to `events/removals`; an instance that finds it changed forgets what it remembered
 * (commit contents and lower bounds are then no longer facts).
 *
 * Derived (rebuildable): per-stream revision files `events/streams/<sha256(id)>/<revision>`
 * (content: the commit's first sequence), and hints (`events/head`, `.../tip`, `events/counts`)
 * that only say where to start looking. Every commit but the newest is fully indexed: before
 * publishing commit H+1 a writer finishes indexing commit H (idempotent), so a crash between a
 * commit and its index is repaired by the next caller.
 *
 * In memory, an instance keeps only facts that stay true: the content of immutable files (commits,
 * revision files), which commits are indexed, and lower bounds (newest commit, stream revisions)
 * to probe forward from. A `reset` by another store instance on the same directory is not seen.
 */
import type { EventStore, ExpectedRevision, NewEvent, ReadStreamOptions, RecordedEvent, TypeCount } from '../ports.ts';
import { checkLimit, checkName, FileStoreFailure } from './failure.ts';
import type { FileSystem } from './file-system.ts';
import { decodeJson, decodeText, encodeJson, encodeText, hashed, padded } from './names.ts';
import { revisionMatches } from '../../contract/revision.ts';
import { readHint, writeHint } from './hints.ts';
import { Memo } from './memo.ts';

interface CommitFile {
  v: 1;
  stream: string;
  /** revision of the first event */
  revision: string;
  recordedAt: string;
  events: Array<{ type: string; payload: string; metadata: string }>;
  /** A removed stream's commit: types kept for the counts, payloads and metadata emptied. */
  removed?: true;
}

interface Commit {
  first: bigint;
  stream: string;
  revision: bigint;
  recordedAt: bigint;
  events: CommitFile['events'];
  removed: boolean;
}

/** Giving up after this many lost races means something is wrong (each lost race is someone else's progress). */
const MAX_RACES = 10_000;
/** A reader that walked this many commits past the hint refreshes it. */
const HINT_REFRESH_STEPS = 2;

const LOG = 'events/log';
const HEAD_HINT = 'events/head';
const COUNTS = 'events/counts';
const REMOVALS = 'events/removals';
const streamDir = (streamId: string) => `events/streams/${hashed(streamId)}`;

const lastOf = (commit: Commit) => commit.first + BigInt(commit.events.length) - 1n;

function recorded(commit: Commit, index: number): RecordedEvent {
  const event = commit.events[index]!;
  return {
    sequence: commit.first + BigInt(index),
    streamId: commit.stream,
    revision: commit.revision + BigInt(index),
    eventType: event.type,
    payload: event.payload,
    metadata: event.metadata,
    recordedAt: commit.recordedAt,
  };
}

export class FileEventStore implements EventStore {
  readonly #fs: FileSystem;
  readonly #now: () => number;
  readonly #commits = new Memo<bigint, Commit>();
  readonly #indexed = new Memo<bigint, true>();
  /** stream id → a revision known to exist (revision files are never removed) */
  readonly #revisions = new Memo<string, bigint>();
  /** revision file path → first sequence of its commit */
  readonly #revisionFiles = new Memo<string, bigint>();
  #newest: Commit | undefined;
  /** `events/removals` as last seen. */
  #removals = 0n;

  constructor(fs: FileSystem, now: () => number) {
    this.#fs = fs;
    this.#now = now;
  }

  append(streamId: string, expected: ExpectedRevision, events: NewEvent[]): RecordedEvent[] {
    checkName('stream id', streamId);
    for (const event of events) checkName('event type', event.eventType);
    for (let race = 0; race < MAX_RACES; race++) {
      const head = this.#sync();
      const actual = this.#revision(streamId);
      if (!revisionMatches(expected, actual)) throw FileStoreFailure.conflict(streamId, expected, actual);
      if (events.length === 0) return [];
      const commit: Commit = {
        first: head.sequence + 1n,
        stream: streamId,
        revision: actual + 1n,
        recordedAt: BigInt(Math.trunc(this.#now())),
        events: events.map((e) => ({ type: e.eventType, payload: e.payload, metadata: e.metadata })),
        removed: false,
      };
      const file: CommitFile = {
        v: 1,
        stream: commit.stream,
        revision: commit.revision.toString(),
        recordedAt: commit.recordedAt.toString(),
        events: commit.events,
      };
      if (!this.#fs.publish(`${LOG}/${padded(commit.first)}`, encodeJson(file))) continue; // lost the race: re-read
      this.#commits.set(commit.first, commit);
      this.#newest = commit;
      this.#index(commit);
      writeHint(this.#fs, HEAD_HINT, commit.first);
      return commit.events.map((_, i) => recorded(commit, i));
    }
    throw FileStoreFailure.unavailable('append kept losing races');
  }

  readStream(streamId: string, options: ReadStreamOptions): RecordedEvent[] {
    checkName('stream id', streamId);
    checkLimit(options.limit);
    this.#sync();
    const top = this.#revision(streamId);
    const from = options.fromRevision;
    const wanted: bigint[] = [];
    if (options.direction === 'forward') {
      for (let r = from === undefined || from < 1n ? 1n : from; r <= top && wanted.length < options.limit; r++) wanted.push(r);
    } else {
      for (let r = from === undefined || from > top ? top : from; r >= 1n && wanted.length < options.limit; r--) wanted.push(r);
    }
    const commits = new Map<bigint, Commit>();
    return wanted.map((revision) => {
      const first = this.#commitOfRevision(streamId, revision);
      let commit = commits.get(first);
      if (!commit) {
        commit = this.#mustRead(first);
        commits.set(first, commit);
      }
      return recorded(commit, Number(revision - commit.revision));
    });
  }

  streamRevision(streamId: string): bigint {
    checkName('stream id', streamId);
    this.#sync();
    return this.#revision(streamId);
  }

  readAll(afterSequence: bigint, limit: number): RecordedEvent[] {
    checkLimit(limit);
    const head = this.#sync().sequence;
    if (afterSequence >= head) return [];
    const out: RecordedEvent[] = [];
    let commit = this.#commitContaining(afterSequence + 1n);
    while (commit && out.length < limit) {
      for (let i = 0; i < commit.events.length && out.length < limit && !commit.removed; i++) {
        const event = recorded(commit, i);
        if (event.sequence > afterSequence && event.sequence <= head) out.push(event);
      }
      const next = lastOf(commit) + 1n;
      commit = next <= head ? this.#read(next) : undefined;
    }
    return out;
  }

  headSequence(): bigint {
    return this.#sync().sequence;
  }

  countByType(typePrefix: string): TypeCount[] {
    const head = this.#sync().sequence;
    let cache = this.#readJson<{ asOf: string; counts: Record<string, string> }>(COUNTS);
    if (cache && BigInt(cache.asOf) > head) cache = undefined; // from before a reset
    let asOf = cache ? BigInt(cache.asOf) : 0n;
    const counts = new Map(Object.entries(cache?.counts ?? {}).map(([type, n]) => [type, BigInt(n)]));
    const startedAt = asOf;
    while (asOf < head) {
      const commit = this.#mustRead(asOf + 1n);
      for (const event of commit.events) counts.set(event.type, (counts.get(event.type) ?? 0n) + 1n);
      asOf = lastOf(commit);
    }
    if (asOf > startedAt) {
      const saved = Object.fromEntries([...counts].map(([type, n]) => [type, n.toString()]));
      this.#fs.replace(COUNTS, encodeJson({ asOf: asOf.toString(), counts: saved }));
    }
    return [...counts]
      .filter(([type]) => type.startsWith(typePrefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([eventType, count]) => ({ eventType, count }));
  }

  removeStream(streamId: string): bigint {
    checkName('stream id', streamId);
    this.#sync();
    const top = this.#revision(streamId);
    const firsts = new Set<bigint>();
    for (let revision = 1n; revision <= top; revision++) firsts.add(this.#commitOfRevision(streamId, revision));
    for (const first of firsts) {
      const commit = this.#mustRead(first);
      const tombstone: CommitFile = {
        v: 1,
        stream: commit.stream,
        revision: commit.revision.toString(),
        recordedAt: commit.recordedAt.toString(),
        events: commit.events.map((event) => ({ type: event.type, payload: '', metadata: '' })),
        removed: true,
      };
      this.#fs.replace(`${LOG}/${padded(first)}`, encodeJson(tombstone));
      this.#commits.set(first, { ...commit, events: tombstone.events, removed: true });
      this.#indexed.set(first, true);
    }
    this.#fs.removeTree(streamDir(streamId));
    // A value no earlier removal wrote (two removers racing must not write the same one).
    this.#removals = BigInt(Math.trunc(this.#now())) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
    writeHint(this.#fs, REMOVALS, this.#removals);
    // Lower bounds and index entries of the stream are no longer true.
    this.#revisions.clear();
    this.#revisionFiles.clear();
    return top;
  }

  /**
   * Follows the chain from the head hint to the newest commit and finishes indexing it, so every
   * commit up to the returned head is indexed.
   */
  #sync(): { sequence: bigint } {
    const removals = readHint(this.#fs, REMOVALS);
    if (removals !== this.#removals) {
      this.forget();
      this.#removals = removals;
    }
    let newest = this.#newest;
    if (!newest) {
      const hinted = readHint(this.#fs, HEAD_HINT);
      newest = hinted > 0n ? this.#read(hinted) : undefined;
    }
    let next = newest ? lastOf(newest) + 1n : 1n;
    let steps = 0;
    for (let commit = this.#read(next); commit; commit = this.#read(next)) {
      newest = commit;
      next = lastOf(commit) + 1n;
      steps++;
    }
    if (!newest) return { sequence: 0n };
    this.#newest = newest;
    this.#index(newest);
    if (steps >= HINT_REFRESH_STEPS) writeHint(this.#fs, HEAD_HINT, newest.first);
    return { sequence: lastOf(newest) };
  }

  /** Creates the commit's revision files, in order (idempotent: any caller may finish another's). */
  #index(commit: Commit): void {
    if (this.#indexed.get(commit.first)) return;
    if (commit.removed) {
      this.#indexed.set(commit.first, true);
      return;
    }
    const dir = streamDir(commit.stream);
    const last = commit.revision + BigInt(commit.events.length) - 1n;
    if (!this.#fs.exists(`${dir}/${padded(last)}`)) {
      // Created in order, so an existing last file means all of them exist.
      const content = encodeText(commit.first.toString());
      for (let r = commit.revision; r <= last; r++) this.#fs.publish(`${dir}/${padded(r)}`, content);
      writeHint(this.#fs, `${dir}/tip`, last);
    }
    this.#indexed.set(commit.first, true);
  }

  /** The stream's revision as of the last sync: the tip hint, then probing forward. */
  #revision(streamId: string): bigint {
    const dir = streamDir(streamId);
    let revision = this.#revisions.get(streamId);
    if (revision === undefined) {
      revision = readHint(this.#fs, `${dir}/tip`);
      // A tip can only be ahead after a reset that raced a writer; be exact anyway.
      while (revision > 0n && !this.#fs.exists(`${dir}/${padded(revision)}`)) revision--;
    }
    while (this.#fs.exists(`${dir}/${padded(revision + 1n)}`)) revision++;
    if (revision > 0n) this.#revisions.set(streamId, revision);
    return revision;
  }

  #commitOfRevision(streamId: string, revision: bigint): bigint {
    const path = `${streamDir(streamId)}/${padded(revision)}`;
    const known = this.#revisionFiles.get(path);
    if (known !== undefined) return known;
    const bytes = this.#fs.read(path);
    if (!bytes) throw FileStoreFailure.unavailable('stream index entry vanished');
    const first = BigInt(decodeText(bytes));
    this.#revisionFiles.set(path, first);
    return first;
  }

  /** The commit holding `sequence` (commit files are named by their first sequence). */
  #commitContaining(sequence: bigint): Commit | undefined {
    for (let first = sequence; first >= 1n; first--) {
      const commit = this.#read(first);
      if (commit) return lastOf(commit) >= sequence ? commit : undefined;
    }
    return undefined;
  }

  #read(first: bigint): Commit | undefined {
    const known = this.#commits.get(first);
    if (known) return known;
    const file = this.#readJson<CommitFile>(`${LOG}/${padded(first)}`);
    if (!file) return undefined;
    const commit = { first, stream: file.stream, revision: BigInt(file.revision), recordedAt: BigInt(file.recordedAt), events: file.events, removed: file.removed === true };
    this.#commits.set(first, commit);
    return commit;
  }

  /** Forgets everything remembered (after this store deleted the files). */
  forget(): void {
    this.#commits.clear();
    this.#indexed.clear();
    this.#revisions.clear();
    this.#revisionFiles.clear();
    this.#newest = undefined;
  }

  #mustRead(first: bigint): Commit {
    const commit = this.#read(first);
    if (!commit) throw FileStoreFailure.unavailable(`commit ${first} vanished`);
    return commit;
  }

  #readJson<T>(path: string): T | undefined {
    const bytes = this.#fs.read(path);
    return bytes ? decodeJson<T>(bytes) : undefined;
  }
}
