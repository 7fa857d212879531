/** @module Interface app:platform/stream-lease@0.1.0 **/
/**
 * Waits at most `wait-ms` for the turn on `stream-id`, in arrival order within a host.
 * none = the turn did not come within `wait-ms` (the caller answers "try again").
 */
export function acquire(streamId: string, waitMs: number, newest: number): Turn | undefined;
export type ExpectedRevision = import('./app-platform-types.js').ExpectedRevision;
export type PlatformError = import('./app-platform-types.js').PlatformError;
export type NewEvent = import('./app-platform-event-store.js').NewEvent;
export type RecordedEvent = import('./app-platform-event-store.js').RecordedEvent;
/**
 * A turn on a stream: its lease and the stream's newest events as the turn starts (at most
 * the `newest` asked for, newest first): what `read-newest` would answer at once, so a writer
 * that decides on the stream's tail needs no call between taking the turn and ending it.
 */
export interface Turn {
  lease: Lease,
  newest: Array<RecordedEvent>,
}

export class Lease {
  /**
   * This type does not have a public constructor.
   */
  private constructor();
  /**
  * Fencing token of the store lease behind this turn: greater than that of every earlier
  * store lease on the stream. A host may hand one store lease on to its next local writers
  * (a few turns, well within the lease time), which then share its token.
  */
  token(): bigint;
  /**
  * `event-store.append` on the leased stream, refused with `unavailable` once the lease has
  * expired or was taken over. The expected revision is still checked (`conflict`).
  */
  append(expected: ExpectedRevision, events: Array<NewEvent>): Array<RecordedEvent>;
  /**
  * The stream's newest events as this turn sees them (at most `limit`, newest first): those
  * `event-store.read-stream` would return, and on top the events of earlier turns that ended
  * with `append-and-end` and are still being committed, with `sequence` and `recorded-at` 0
  * until they are. Decide on these; an append expecting their revision is refused
  * (`conflict`) if one of them does not commit.
  */
  readNewest(limit: number): Array<RecordedEvent>;
  /**
  * `append`, as the turn's last act: the host may hand the turn to the next writer as soon
  * as the append is sent, before it is confirmed (the next writer sees these events pending
  * through `read-newest`). Returns once the events are committed: the appended events, newest
  * first, then earlier events of the stream, `newest` events in all at most, all committed
  * (those this turn read pending included); a host may return fewer earlier events. Any later
  * call on this lease is refused with `unavailable`.
  * With `announce` set, the host also publishes that answer on the pub/sub channel `announce`
  * once it is committed (as `pubsub.publish` would, best effort: a failed publish is the
  * host's to log and count and never fails the append), as JSON text:
  * `{"stream-id": s, "events": [e, ...]}`, each event with the fields of `recorded-event` in
  * kebab case, numbers as JSON numbers (src/contract/committed-events.ts writes it).
  * So a command's answer and its realtime wake-up cost the guest one call.
  */
  appendAndEnd(expected: ExpectedRevision, events: Array<NewEvent>, newest: number, announce: string | undefined): Array<RecordedEvent>;
}
