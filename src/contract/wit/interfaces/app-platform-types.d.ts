/** @module Interface app:platform/types@0.1.0 **/
/**
 * What an append or a removal (`remove-stream`) expects of the stream's current revision.
 * Revisions are 1-based: a stream with n events is at revision n; no stream is revision 0.
 */
export type ExpectedRevision = ExpectedRevisionAny | ExpectedRevisionNoStream | ExpectedRevisionStreamExists | ExpectedRevisionExact;
/**
 * append whatever the stream's revision is
 */
export interface ExpectedRevisionAny {
  tag: 'any',
}
/**
 * the stream must not exist yet (claims a unique name: a user's email, an external identity)
 */
export interface ExpectedRevisionNoStream {
  tag: 'no-stream',
}
/**
 * the stream must have at least one event
 */
export interface ExpectedRevisionStreamExists {
  tag: 'stream-exists',
}
/**
 * the stream must be exactly at this revision (optimistic concurrency)
 */
export interface ExpectedRevisionExact {
  tag: 'exact',
  val: bigint,
}
/**
 * An append or removal lost an optimistic-concurrency race or its expectation did not hold.
 */
export interface RevisionConflict {
  streamId: string,
  expected: ExpectedRevision,
  /**
   * the stream's revision when the append or removal was refused (0 = no stream)
   */
  actual: bigint,
}
/**
 * Why a platform call failed. Messages are for logs, never for end users.
 */
export type PlatformError = PlatformErrorConflict | PlatformErrorUnavailable | PlatformErrorInvalid | PlatformErrorInternal;
export interface PlatformErrorConflict {
  tag: 'conflict',
  val: RevisionConflict,
}
/**
 * the backend cannot be reached or refused service; retrying later may succeed
 */
export interface PlatformErrorUnavailable {
  tag: 'unavailable',
  val: string,
}
/**
 * the call's arguments are not acceptable (empty stream id, limit 0, ...)
 */
export interface PlatformErrorInvalid {
  tag: 'invalid',
  val: string,
}
/**
 * anything else
 */
export interface PlatformErrorInternal {
  tag: 'internal',
  val: string,
}
