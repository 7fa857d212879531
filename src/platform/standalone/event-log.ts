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
 * Removing a stream (retention, erasure) checks its expected revision as of the head it read (an
 * append another instance publishes after that check is not refused: a removal claims no log
 * name), then replaces each of its commit files with a tombstone: the same name and event count,
 * so the chain keeps its links, and the event types, so the counts stay exact, but no payload or
 * metadata; its revision files go. Readers skip tombstones. A
 * removal writes a new value to `events/removals`; an instance that finds it changed forgets what it remembered
 * (commit contents and lower bounds are then no longer facts). It also leaves a marker
 * `events/removed/<first>` per tombstone, for compaction.
 *
 * Truncating a stream (`truncate-before`) makes tombstones of its commits wholly below the bound
 * (as a removal does, markers included) and empties the payloads and metadata of the events below
 * it in a commit that straddles it (`truncated`: how many of its first events are gone; readers
 * skip them); it deletes their revision files and writes the stream's floor
 * (`events/streams/<sha256(id)>/floor`: its oldest revision kept), which revision probes and
 * stream reads start from. The newest event always stays, so the stream's revision is unchanged.
 * It changes `events/removals` as a removal does.
 *
 * Compaction (`compact`, run by maintenance) folds each run of adjacent tombstones below the newest
 * commit into one range: the run's first file becomes the range (through: its last sequence;
 * counts: its event types, for `countByType`), its last commit's file stays as the range's end
 * marker (a tombstone naming the range's first), and the files between are deleted, in ascending
 * order, after the range and its marker are written. Files for ended sessions are then at most two
 * per run of removed commits, and runs lie between live commits. A chain walk steps from a range to
 * the commit after it; a search back from a sequence inside a run meets the range or its marker.
 * A late writer (one that read the chain, then stalled while the next commit was published,
 * removed and folded) may find a deleted name free and publish it: any removal or fold changes
 * `events/removals` first, so a writer that finds it changed after publishing checks that its
 * commit follows the chain (the item holding the sequence before it ends right there) and takes
 * its file back otherwise.
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
import { decodeJson, decodeText, encodeJson, encodeText, hashed, padded, sameBytes } from './names.ts';
import { revisionMatches } from '../../contract/revision.ts';
import { readHint, writeHint } from './hints.ts';
import { Memo } from './memo.ts';
import { whileCompacting } from './compaction-lock.ts';

interface CommitFile {
  v: 1;
  stream: string;
  /** revision of the first event */
  revision: string;
  recordedAt: string;
  events: Array<{ type: string; payload: string; metadata: string }>;
  /** A removed stream's commit: types kept for the counts, payloads and metadata emptied. */
  removed?: true;
  /** A folded run of removed commits (this file is its first): its last sequence, */
  through?: string;
  /** its events' counts by type, */
  counts?: Record<string, string>;
  /** and its end marker (the run's last commit). */
  marker?: string;
  /** An end marker: the first sequence of its range. */
  foldedFrom?: string;
  /** A truncated stream's commit: how many of its first events are gone (payloads and metadata emptied). */
  truncated?: number;
}

interface Commit {
  first: bigint;
  stream: string;
  revision: bigint;
  recordedAt: bigint;
  events: CommitFile['events'];
  removed: boolean;
  /** the last sequence it stands for */
  last: bigint;
  /** a folded range's counts by type and end marker */
  range?: { counts: Map<string, bigint>; marker: bigint };
  /** an end marker's range */
  foldedFrom?: bigint;
  /** how many of its first events were truncated */
  truncated: number;
}

/** Giving up after this many lost races means something is wrong (each lost race is someone else's progress). */
const MAX_RACES = 10_000;
/**
 * A reader that walked this many commits refreshes the head hint. Writers write it with each
 * commit, so a walk of a few commits (the commits of other instances since this one's last call)
 * finds it current already; a long walk means writers stopped before writing it (killed).
 */
const HINT_REFRESH_STEPS = 32;
/**
 * Writers refresh a stream's tip hint when a commit crosses a multiple of this: a fresh instance
 * probes at most this far past it, and a writer pays the hint's rename on one commit in this many
 * instead of on each (as the projection store does).
 */
const HINT_EVERY = 8n;

/** Whether the numbers `from`..`to` hold a multiple of HINT_EVERY. */
const crossesHint = (from: bigint, to: bigint): boolean => to / HINT_EVERY > (from - 1n) / HINT_EVERY;

const LOG = 'events/log';
const HEAD_HINT = 'events/head';
const COUNTS = 'events/counts';
const REMOVALS = 'events/removals';
/** One marker per tombstone not folded yet. */
const REMOVED = 'events/removed';
const FOLD_LOCK = 'events/fold.lock';
const streamDir = (streamId: string) => `events/streams/${hashed(streamId)}`;
/** A truncated stream's oldest revision kept (absent: 1). */
const floorOf = (streamId: string) => `${streamDir(streamId)}/floor`;

const lastOf = (commit: Commit) => commit.last;
const isDigits = (name: string) => /^\d+$/.test(name);

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
  /**
   * `<stream id>\n<revision>` → first sequence of its commit, learnt from the commits read (a
   * chain walk reads every commit it passes): what the revision file says, without reading it.
   */
  readonly #revisionsRead = new Memo<string, bigint>();
  /** stream id → its floor (true until a truncation, which changes `events/removals`) */
  readonly #floors = new Memo<string, bigint>();
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
      const first = head.sequence + 1n;
      const commit: Commit = {
        first,
        stream: streamId,
        revision: actual + 1n,
        recordedAt: BigInt(Math.trunc(this.#now())),
        events: events.map((e) => ({ type: e.eventType, payload: e.payload, metadata: e.metadata })),
        removed: false,
        last: first + BigInt(events.length) - 1n,
        truncated: 0,
      };
      const file: CommitFile = {
        v: 1,
        stream: commit.stream,
        revision: commit.revision.toString(),
        recordedAt: commit.recordedAt.toString(),
        events: commit.events,
      };
      const path = `${LOG}/${padded(commit.first)}`;
      const bytes = encodeJson(file);
      if (!this.#fs.publish(path, bytes)) continue; // lost the race: re-read
      if (readHint(this.#fs, REMOVALS) !== this.#removals && !this.#follows(commit.first)) {
        // A late writer on a name compaction freed: take the file back and try again.
        if (sameBytes(this.#fs.read(path), bytes)) {
          this.#fs.remove(path);
          continue;
        }
        // The file is no longer ours: the commit was on the chain, then removed and folded.
        return commit.events.map((_, i) => recorded(commit, i));
      }
      this.#commits.set(commit.first, commit);
      this.#learnRevisions(commit);
      this.#newest = commit;
      // Its revision files cannot exist yet unless another instance already indexes it (publish is idempotent).
      this.#index(commit, true);
      this.#revisions.set(streamId, commit.revision + BigInt(events.length) - 1n);
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
    const floor = this.#floor(streamId);
    const from = options.fromRevision;
    const wanted: bigint[] = [];
    if (options.direction === 'forward') {
      for (let r = from === undefined || from < floor ? floor : from; r <= top && wanted.length < options.limit; r++) wanted.push(r);
    } else {
      for (let r = from === undefined || from > top ? top : from; r >= floor && wanted.length < options.limit; r--) wanted.push(r);
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
      for (let i = commit.truncated; i < commit.events.length && out.length < limit && !commit.removed; i++) {
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
      const commit = this.#read(asOf + 1n);
      if (!commit && asOf > 0n) {
        // The cached totals end inside a run folded since: count again from the start.
        asOf = 0n;
        counts.clear();
        continue;
      }
      if (!commit) throw FileStoreFailure.unavailable(`commit ${asOf + 1n} vanished`);
      if (commit.range) for (const [type, n] of commit.range.counts) counts.set(type, (counts.get(type) ?? 0n) + n);
      else for (const event of commit.events) counts.set(event.type, (counts.get(event.type) ?? 0n) + 1n);
      asOf = lastOf(commit);
    }
    if (asOf !== startedAt) {
      const saved = Object.fromEntries([...counts].map(([type, n]) => [type, n.toString()]));
      this.#fs.replace(COUNTS, encodeJson({ asOf: asOf.toString(), counts: saved }));
    }
    return [...counts]
      .filter(([type]) => type.startsWith(typePrefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([eventType, count]) => ({ eventType, count }));
  }

  removeStream(streamId: string, expected: ExpectedRevision): bigint {
    checkName('stream id', streamId);
    this.#sync();
    const top = this.#revision(streamId);
    if (!revisionMatches(expected, top)) throw FileStoreFailure.conflict(streamId, expected, top);
    const floor = this.#floor(streamId);
    const firsts = new Set<bigint>();
    for (let revision = floor; revision <= top; revision++) firsts.add(this.#commitOfRevision(streamId, revision));
    for (const first of firsts) {
      const commit = this.#mustRead(first);
      // The stream's name goes too: it may name a person (an address's hash); nothing reads the
      // name of a removed commit (no revision, no event of it is served again).
      const tombstone: CommitFile = {
        v: 1,
        stream: '',
        revision: commit.revision.toString(),
        recordedAt: commit.recordedAt.toString(),
        events: commit.events.map((event) => ({ type: event.type, payload: '', metadata: '' })),
        removed: true,
      };
      this.#fs.replace(`${LOG}/${padded(first)}`, encodeJson(tombstone));
      this.#fs.publish(`${REMOVED}/${padded(first)}`, new Uint8Array());
      this.#commits.set(first, { ...commit, events: tombstone.events, removed: true });
      this.#indexed.set(first, true);
    }
    // The newest commit may be one of them: it now stands for no revision of the stream.
    if (this.#newest !== undefined && firsts.has(this.#newest.first)) this.#newest = this.#commits.get(this.#newest.first);
    this.#fs.removeTree(streamDir(streamId));
    this.#announceRemoval();
    // Lower bounds, index entries and the floor of the stream are no longer true.
    this.#floors.clear();
    this.#revisions.clear();
    this.#revisionFiles.clear();
    this.#revisionsRead.clear();
    return top < floor ? 0n : top - floor + 1n;
  }

  truncateBefore(streamId: string, revision: bigint): bigint {
    checkName('stream id', streamId);
    if (typeof revision !== 'bigint' || revision < 0n) throw FileStoreFailure.invalid('revision must be a u64');
    this.#sync();
    const top = this.#revision(streamId);
    const floor = this.#floor(streamId);
    // The newest event always stays.
    const cut = revision < top ? revision : top;
    if (cut <= floor) return 0n;
    const dir = streamDir(streamId);
    const firsts = new Set<bigint>();
    for (let r = floor; r < cut; r++) firsts.add(this.#commitOfRevision(streamId, r));
    for (const first of firsts) {
      const commit = this.#mustRead(first);
      const gone = Number(cut - commit.revision);
      if (gone >= commit.events.length) {
        // Wholly below: a tombstone, as removeStream writes (the stream's name goes too).
        const tombstone: CommitFile = {
          v: 1,
          stream: '',
          revision: commit.revision.toString(),
          recordedAt: commit.recordedAt.toString(),
          events: commit.events.map((event) => ({ type: event.type, payload: '', metadata: '' })),
          removed: true,
        };
        this.#fs.replace(`${LOG}/${padded(first)}`, encodeJson(tombstone));
        this.#fs.publish(`${REMOVED}/${padded(first)}`, new Uint8Array());
      } else {
        // Straddling the bound: its first `gone` events are emptied, the rest stay.
        const events = commit.events.map((event, i) => (i < gone ? { type: event.type, payload: '', metadata: '' } : event));
        const file: CommitFile = { v: 1, stream: commit.stream, revision: commit.revision.toString(), recordedAt: commit.recordedAt.toString(), events, truncated: gone };
        this.#fs.replace(`${LOG}/${padded(first)}`, encodeJson(file));
      }
    }
    // The floor first: a reader never looks for a revision file below it.
    this.#fs.replace(floorOf(streamId), encodeText(cut.toString()));
    for (let r = floor; r < cut; r++) this.#fs.remove(`${dir}/${padded(r)}`);
    this.#announceRemoval();
    // What this instance remembered of those commits and revisions is no longer true.
    this.forget();
    return cut - floor;
  }

  /** Folds runs of tombstones (see above); returns how many files it deleted. */
  compact(): number {
    return whileCompacting(this.#fs, FOLD_LOCK, this.#now, () => {
      const markers = this.#fs.list(REMOVED).filter(isDigits).map(BigInt);
      if (markers.length === 0) return 0;
      markers.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.#sync();
      const newest = this.#newest;
      if (!newest) return 0;
      // A fresh instance starts from a commit that stays.
      writeHint(this.#fs, HEAD_HINT, newest.first);
      let deleted = 0;
      let foldedThrough = 0n;
      for (const first of markers) {
        // The newest commit stays whole (it may not be indexed yet): its marker waits.
        if (first >= newest.first) continue;
        if (first > foldedThrough) {
          const run = this.#runAround(first, newest.first);
          if (run === undefined) break; // another instance changed the log meanwhile: the next pass
          deleted += run.deleted;
          foldedThrough = run.through;
        }
        this.#fs.remove(`${REMOVED}/${padded(first)}`);
      }
      this.#announceRemoval();
      this.forget();
      return deleted;
    });
  }

  /** Folds the run of tombstones holding `first`, up to `limit` (excluded); undefined when the files changed under it. */
  #runAround(first: bigint, limit: bigint): { through: bigint; deleted: number } | undefined {
    let start = this.#read(first);
    if (!start?.removed) return { through: first, deleted: 0 };
    // Back to the run's first item (a range's end marker names it).
    for (;;) {
      const before: Commit | undefined = start.first > 1n ? this.#commitContaining(start.first - 1n) : undefined;
      if (!before?.removed) break;
      start = before.foldedFrom === undefined ? before : this.#read(before.foldedFrom);
      if (!start?.removed) return undefined;
    }
    const run: Commit[] = [];
    for (let item: Commit | undefined = start; item?.removed && item.first < limit; item = this.#read(lastOf(item) + 1n)) run.push(item);
    const last = run.at(-1)!;
    if (run.length < 2) return { through: lastOf(last), deleted: 0 };
    const through = lastOf(last);
    const marker = last.range ? last.range.marker : last.first;
    const counts = new Map<string, bigint>();
    const names: bigint[] = [];
    for (const item of run) {
      if (item.range) for (const [type, n] of item.range.counts) counts.set(type, (counts.get(type) ?? 0n) + n);
      else for (const event of item.events) counts.set(event.type, (counts.get(event.type) ?? 0n) + 1n);
      if (item !== start) names.push(item.first);
      if (item.range) names.push(item.range.marker);
    }
    const markerFile = this.#readJson<CommitFile>(`${LOG}/${padded(marker)}`);
    if (!markerFile?.removed) return undefined;
    // The range, then its end marker, then the files between, in ascending order (see above).
    const range: CommitFile = {
      v: 1,
      stream: '',
      revision: '0',
      recordedAt: '0',
      events: [],
      removed: true,
      through: through.toString(),
      counts: Object.fromEntries([...counts].map(([type, n]) => [type, n.toString()])),
      marker: marker.toString(),
    };
    this.#fs.replace(`${LOG}/${padded(start.first)}`, encodeJson(range));
    this.#fs.replace(`${LOG}/${padded(marker)}`, encodeJson({ ...markerFile, foldedFrom: start.first.toString() } satisfies CommitFile));
    let deleted = 0;
    for (const name of names.filter((n) => n !== marker).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (this.#fs.remove(`${LOG}/${padded(name)}`)) deleted++;
    }
    this.#commits.clear();
    return { through, deleted };
  }

  /** Whether the commit at `first` follows the chain: the item holding the sequence before it ends there. */
  #follows(first: bigint): boolean {
    this.forget();
    this.#removals = readHint(this.#fs, REMOVALS);
    if (first === 1n) return true;
    const before = this.#commitContaining(first - 1n);
    return before !== undefined && lastOf(before) === first - 1n;
  }

  /** A value no earlier removal or fold wrote (two racing must not write the same one). */
  #announceRemoval(): void {
    this.#removals = BigInt(Math.trunc(this.#now())) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
    writeHint(this.#fs, REMOVALS, this.#removals);
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

  /**
   * Creates the commit's revision files, in order (idempotent: any caller may finish another's).
   * `fresh`: the commit was just published by this instance, so no look for its files first.
   */
  #index(commit: Commit, fresh = false): void {
    if (this.#indexed.get(commit.first)) return;
    if (commit.removed) {
      this.#indexed.set(commit.first, true);
      return;
    }
    const dir = streamDir(commit.stream);
    const last = commit.revision + BigInt(commit.events.length) - 1n;
    if (fresh || !this.#fs.exists(`${dir}/${padded(last)}`)) {
      // Created in order, so an existing last file means all of them exist.
      const content = encodeText(commit.first.toString());
      for (let r = commit.revision; r <= last; r++) this.#fs.publish(`${dir}/${padded(r)}`, content);
      // A finisher of another's commit refreshes the tip as well: it found the index behind.
      if (!fresh || crossesHint(commit.revision, last)) writeHint(this.#fs, `${dir}/tip`, last);
    }
    this.#indexed.set(commit.first, true);
  }

  /**
   * The stream's revision as of the last sync: the newest commit's own when it is the stream's
   * (no probe: the writer of a busy stream pays nothing for the commits of others), else the tip
   * hint, then probing forward.
   */
  #revision(streamId: string): bigint {
    const newest = this.#newest;
    if (newest !== undefined && newest.stream === streamId && !newest.removed && newest.range === undefined) {
      const revision = newest.revision + BigInt(newest.events.length) - 1n;
      this.#revisions.set(streamId, revision);
      return revision;
    }
    const dir = streamDir(streamId);
    let revision = this.#revisions.get(streamId);
    if (revision === undefined) {
      // A truncated stream has no revision files below its floor, and keeps its newest event.
      const below = this.#floor(streamId) - 1n;
      revision = readHint(this.#fs, `${dir}/tip`);
      if (revision < below) revision = below;
      // A tip can only be ahead after a reset that raced a writer; be exact anyway.
      while (revision > below && !this.#fs.exists(`${dir}/${padded(revision)}`)) revision--;
    }
    while (this.#fs.exists(`${dir}/${padded(revision + 1n)}`)) revision++;
    if (revision > 0n) this.#revisions.set(streamId, revision);
    return revision;
  }

  /** The stream's oldest revision kept: 1 unless truncated. */
  #floor(streamId: string): bigint {
    const known = this.#floors.get(streamId);
    if (known !== undefined) return known;
    const bytes = this.#fs.read(floorOf(streamId));
    const floor = bytes ? BigInt(decodeText(bytes)) : 1n;
    this.#floors.set(streamId, floor);
    return floor;
  }

  #commitOfRevision(streamId: string, revision: bigint): bigint {
    const path = `${streamDir(streamId)}/${padded(revision)}`;
    const known = this.#revisionFiles.get(path) ?? this.#revisionsRead.get(`${streamId}\n${revision}`);
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
    const commit: Commit = {
      first,
      stream: file.stream,
      revision: BigInt(file.revision),
      recordedAt: BigInt(file.recordedAt),
      events: file.events,
      removed: file.removed === true,
      truncated: file.truncated ?? 0,
      last: file.through !== undefined ? BigInt(file.through) : first + BigInt(file.events.length) - 1n,
    };
    if (file.through !== undefined) {
      commit.range = { counts: new Map(Object.entries(file.counts ?? {}).map(([type, n]) => [type, BigInt(n)])), marker: BigInt(file.marker ?? file.through) };
    }
    if (file.foldedFrom !== undefined) commit.foldedFrom = BigInt(file.foldedFrom);
    this.#commits.set(first, commit);
    this.#learnRevisions(commit);
    return commit;
  }

  /** Remembers which commit holds each revision of a live commit (true until a removal, which makes every instance forget). */
  #learnRevisions(commit: Commit): void {
    if (commit.removed) return;
    for (let i = commit.truncated; i < commit.events.length; i++) this.#revisionsRead.set(`${commit.stream}\n${commit.revision + BigInt(i)}`, commit.first);
  }

  /** Forgets everything remembered (after this store deleted the files). */
  forget(): void {
    this.#commits.clear();
    this.#indexed.clear();
    this.#revisions.clear();
    this.#revisionFiles.clear();
    this.#revisionsRead.clear();
    this.#floors.clear();
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
