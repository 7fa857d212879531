/**
 * A read the host's response cache (host/response-cache/) makes on every hit: the newest event of
 * several streams at once (revision, global sequence, time recorded), in one round trip. Its
 * answer tells whether a response built from those streams can still be served. The sequence and
 * time are there as well as the revision because a store that was wiped (`npm run reset`) and
 * refilled can reach the same revision again with different events.
 */
import type { Awaitable } from '../platform-answer.ts';

/** The newest event of one stream; all three are 0 for a stream without events. */
export interface StreamHead {
  revision: bigint;
  sequence: bigint;
  recordedAt: bigint;
}

export const NO_HEAD: StreamHead = { revision: 0n, sequence: 0n, recordedAt: 0n };

/** The heads of `streamIds`, in the same order. Fails with StorageFailure. */
export type StreamHeads = (streamIds: readonly string[]) => Awaitable<StreamHead[]>;

/** Most streams one read may name (a response declaring more is not cached). */
export const MAX_HEAD_STREAMS = 32;
