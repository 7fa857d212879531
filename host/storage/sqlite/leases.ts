/**
 * stream-lease on SQLite: one row per stream in app_stream_leases (last fencing token, expiry).
 * A turn is taken in a short IMMEDIATE transaction when the row is absent, released or expired,
 * bumping the token; the lease's append checks, inside its own write transaction, that the row
 * still holds its token and has not expired (fencing), so a holder that stalled past the lease
 * time writes nothing. Another connection (a `--workers` thread, another process on the file)
 * holding the turn is waited for by polling every POLL_MS: node:sqlite has no blocking wait that
 * would not stall the thread's event loop. Within a thread the in-process FIFO queues writers first.
 *
 * The tail a lease brings (its stream's newest events) is kept after the lease ends
 * (sqlite/recent-tails.ts): the next acquire of the stream checks the newest event's revision and
 * sequence, one index seek, and reads the tail again only when someone else wrote meanwhile.
 * Reading 64 rows was the larger part of a command's store time on this backend.
 */
import type { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkName, StorageFailure } from '../errors.ts';
import type { StreamHead } from '../stream-heads.ts';
import type { HeldLease, StreamLeaseBackend } from '../../leases/port.ts';
import type { Append } from './append.ts';
import type { ReadStream } from './read-stream.ts';
import { toStorageFailure } from './errors.ts';
import { RecentTails } from './recent-tails.ts';
import { immediate } from './transaction.ts';
import { int, type Row } from '../sql/values.ts';

const POLL_MS = 1;

/** `streamHeads`: the backend's (stream-heads.ts), which checks a kept tail is still the newest. */
export function createLeases(
  db: DatabaseSync,
  append: Append,
  readStream: ReadStream,
  streamHeads: (streamIds: readonly string[]) => StreamHead[],
  ttlMs: number,
): StreamLeaseBackend {
  const select = db.prepare('SELECT token, expires_at FROM app_stream_leases WHERE stream_id = ?');
  const take = db.prepare(
    `INSERT INTO app_stream_leases (stream_id, token, expires_at) VALUES (?, 1, ?)
     ON CONFLICT (stream_id) DO UPDATE SET token = token + 1, expires_at = excluded.expires_at
     RETURNING token`,
  );
  const release = db.prepare('UPDATE app_stream_leases SET expires_at = 0 WHERE stream_id = ? AND token = ?');
  const renew = db.prepare('UPDATE app_stream_leases SET expires_at = ? WHERE stream_id = ? AND token = ? AND expires_at > ?');
  const recent = new RecentTails(readStream, streamHeads);

  /** The new token, or undefined while another holder's turn lasts. */
  function tryTake(streamId: string): bigint | undefined {
    return immediate(db, () => {
      const now = Date.now();
      const row = select.get(streamId) as Row | undefined;
      if (row !== undefined && int(row, 'expires_at') > BigInt(now)) return undefined;
      const taken = take.get(streamId, now + ttlMs) as Row | undefined;
      if (taken === undefined) throw StorageFailure.internal('the lease row was not written');
      return int(taken, 'token');
    });
  }

  function fenceFor(streamId: string, token: bigint): () => void {
    return () => {
      const row = select.get(streamId) as Row | undefined;
      if (row === undefined || int(row, 'token') !== token || int(row, 'expires_at') <= BigInt(Date.now())) {
        throw StorageFailure.unavailable('the stream lease has ended');
      }
    };
  }

  function held(streamId: string, token: bigint, tailEvents: number | undefined): HeldLease {
    let released = false;
    const fence = fenceFor(streamId, token);
    // The turn's last append ends the lease in its own transaction: one write transaction less.
    const fenceAndRelease = () => {
      fence();
      release.run(streamId, token);
    };
    // Read after the take: from now on no lease holder but this one can change the stream.
    const tail = tailEvents === undefined ? undefined : recent.read(streamId, tailEvents);
    const lease: HeldLease = {
      token,
      reusable: true,
      ...(tail === undefined ? {} : { tail }),
      append(expected, events, options) {
        const ending = options?.release === true;
        try {
          const recorded = append(streamId, expected, events, ending ? fenceAndRelease : fence);
          if (ending) released = true;
          recent.appended(streamId, recorded);
          return recorded;
        } finally {
          // A refused append rolled its release back with it.
          if (ending) lease.release();
        }
      },
      release() {
        if (released) return;
        released = true;
        try {
          release.run(streamId, token);
        } catch {
          // Best effort: a lease that cannot be released expires on its own.
        }
      },
      renew() {
        if (released) return false;
        const now = Date.now();
        try {
          return Number(renew.run(now + ttlMs, streamId, token, now).changes) === 1;
        } catch (error) {
          throw toStorageFailure(error);
        }
      },
    };
    return lease;
  }

  return {
    ttlMs,
    acquire(streamId, waitMs, tailEvents) {
      checkName('stream id', streamId);
      try {
        const token = tryTake(streamId);
        if (token !== undefined) return held(streamId, token, tailEvents);
      } catch (error) {
        throw toStorageFailure(error);
      }
      return (async () => {
        const deadline = performance.now() + waitMs;
        for (;;) {
          const left = deadline - performance.now();
          if (left <= 0) return undefined;
          await sleep(Math.min(left, POLL_MS));
          try {
            const token = tryTake(streamId);
            if (token !== undefined) return held(streamId, token, tailEvents);
          } catch (error) {
            throw toStorageFailure(error);
          }
        }
      })();
    },
  };
}
