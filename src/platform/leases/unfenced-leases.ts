/**
 * StreamLeases for a platform whose store is its own arbiter and has no lease to offer: every
 * turn is granted at once and its append is the plain append, so writers may still race and the
 * revision check (with the command routine's bounded retry) decides. Used by the standalone
 * world: `wasmtime serve` gives each request a fresh instance and the file store's exclusive
 * per-sequence files already refuse a second writer of one position (docs/scaling.md).
 */
import type { EventStore, StreamLease, StreamLeases } from '../ports.ts';

export function unfencedLeases(events: EventStore): StreamLeases {
  let token = 0n;
  return {
    acquire(streamId): StreamLease {
      token += 1n;
      return {
        token,
        readNewest: (limit) => events.readStream(streamId, { direction: 'backward', limit }),
        append: (expected, list) => events.append(streamId, expected, list),
        // Nothing is ever pending here: the appended events alone (the caller has the rest).
        appendAndEnd: (expected, list) => [...events.append(streamId, expected, list)].reverse(),
        release: () => {},
      };
    },
  };
}
