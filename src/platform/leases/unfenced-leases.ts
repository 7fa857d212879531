/**
 * StreamLeases for a platform whose store is its own arbiter and has no lease to offer: every
 * turn is granted at once and its append is the plain append, so writers may still race and the
 * revision check (with the command routine's bounded retry) decides. Used by the standalone
 * world: `wasmtime serve` gives each request a fresh instance and the file store's exclusive
 * per-sequence files already refuse a second writer of one position (docs/scaling.md).
 */
import { encodeCommittedEvents } from '../../contract/committed-events.ts';
import type { EventStore, StreamLease, StreamLeases } from '../ports.ts';

/**
 * `announce` publishes a commit's announcement (where the platform has pub/sub: the in-memory
 * test platform); without it `appendAndEnd` ignores its `announce` (the file store has no pub/sub).
 */
export function unfencedLeases(events: EventStore, announce?: (channel: string, message: string) => void): StreamLeases {
  let token = 0n;
  return {
    acquire(streamId, _waitMs, newest): StreamLease {
      token += 1n;
      const seen = newest > 0 ? events.readStream(streamId, { direction: 'backward', limit: newest }) : [];
      return {
        token,
        newest: seen,
        readNewest: (limit) => events.readStream(streamId, { direction: 'backward', limit }),
        append: (expected, list) => events.append(streamId, expected, list),
        // Nothing is ever pending here: the appended events alone (the caller has the rest); an
        // announcement carries the newest `limit` as the host's does (what the turn came with
        // lies right below them, or the append was refused).
        appendAndEnd: (expected, list, limit, channel) => {
          const appended = [...events.append(streamId, expected, list)].reverse();
          const low = appended.at(-1)?.revision;
          if (channel !== undefined && announce !== undefined && low !== undefined) {
            const answer = appended.concat(seen.filter((e) => e.revision < low)).slice(0, Math.max(limit, appended.length));
            announce(channel, encodeCommittedEvents(streamId, answer));
          }
          return appended;
        },
        release: () => {},
      };
    },
  };
}
