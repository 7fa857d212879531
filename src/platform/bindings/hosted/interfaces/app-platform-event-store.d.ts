/// <reference path="./app-platform-types.d.ts" />
declare module 'app:platform/event-store@0.1.0' {
  /**
   * Appends `events` atomically if `expected` holds, assigning revisions and global sequences.
   * All or nothing: on `conflict` nothing was written. Returns the events as stored.
   */
  export function append(streamId: string, expected: ExpectedRevision, events: Array<NewEvent>): Array<RecordedEvent>;
  /**
   * Reads one stream in revision order.
   */
  export function readStream(streamId: string, options: ReadStreamOptions): Array<RecordedEvent>;
  /**
   * The stream's current revision (0 when it does not exist).
   */
  export function streamRevision(streamId: string): bigint;
  /**
   * Reads every stream in global order: events with sequence > `after-sequence`, at most `limit` (1..=1000).
   */
  export function readAll(afterSequence: bigint, limit: number): Array<RecordedEvent>;
  /**
   * The highest sequence assigned so far (0 when the store is empty).
   */
  export function headSequence(): bigint;
  /**
   * Number of events appended per type, for types starting with `type-prefix` ("" = all types).
   * Events of removed streams still count: the totals are kept apart from the events.
   */
  export function countByType(typePrefix: string): Array<TypeCount>;
  /**
   * Removes every event of the stream if `expected` holds (as for `append`: `exact(n)` removes
   * only the stream read at revision n, so an append since then is not lost with it), all or
   * nothing, and returns how many it removed (0 when the stream does not exist). On `conflict`
   * nothing was removed. Their sequences are never assigned again (`read-all` skips them);
   * `count-by-type` keeps counting them. The stream's revision is 0 afterwards, so an append
   * expecting `no-stream` may create it again. For data that has outlived its use (retention)
   * or must be erased.
   */
  export function removeStream(streamId: string, expected: ExpectedRevision): bigint;
  /**
   * Removes the stream's events with a revision below `revision`, all or nothing, and returns
   * how many it removed. The newest event always stays (a `revision` beyond it counts as the
   * newest's), so the stream's revision and numbering do not change: an append expecting
   * `exact(n)` still works, `read-stream` starts at the oldest event kept. Like `remove-stream`,
   * their sequences are never assigned again (`read-all` skips them) and `count-by-type` keeps
   * counting them. For a stream whose newest event alone is its state (bounded history).
   */
  export function truncateBefore(streamId: string, revision: bigint): bigint;
  export type ExpectedRevision = import('app:platform/types@0.1.0').ExpectedRevision;
  export type PlatformError = import('app:platform/types@0.1.0').PlatformError;
  /**
   * An event to append. `payload` and `metadata` are JSON texts.
   */
  export interface NewEvent {
    eventType: string,
    payload: string,
    metadata: string,
  }
  /**
   * A stored event.
   */
  export interface RecordedEvent {
    /**
     * global position, 1-based, strictly increasing across all streams; no gaps but those
     * left by removed streams
     */
    sequence: bigint,
    streamId: string,
    /**
     * position within its stream, 1-based, no gaps
     */
    revision: bigint,
    eventType: string,
    payload: string,
    metadata: string,
    /**
     * milliseconds since the Unix epoch (UTC), assigned by the store
     */
    recordedAt: bigint,
  }
  /**
   * # Variants
   * 
   * ## `"forward"`
   * 
   * ## `"backward"`
   */
  export type Direction = 'forward' | 'backward';
  export interface ReadStreamOptions {
    direction: Direction,
    /**
     * first revision to return (inclusive); none = the start (forward) or the end (backward)
     */
    fromRevision?: bigint,
    /**
     * at most this many events (1..=1000)
     */
    limit: number,
  }
  export interface TypeCount {
    eventType: string,
    count: bigint,
  }
}
