/** The response cache's validation read (../stream-heads.ts): one prepared statement per stream, one index seek each. */
import type { DatabaseSync } from 'node:sqlite';
import { checkName } from '../errors.ts';
import { NO_HEAD, type StreamHead } from '../stream-heads.ts';
import { guard } from './errors.ts';
import { int } from '../sql/values.ts';

export function createStreamHeads(db: DatabaseSync): (streamIds: readonly string[]) => StreamHead[] {
  // The UNIQUE (stream_id, revision) index serves ORDER BY revision DESC LIMIT 1 as one seek.
  const select = db.prepare('SELECT revision, sequence, recorded_at FROM app_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
  return guard(function streamHeads(streamIds) {
    // Synchronous and on one connection: no write can land between the statements of one call.
    return streamIds.map((id) => {
      checkName('stream id', id);
      const row = select.get(id);
      return row === undefined ? NO_HEAD : { revision: int(row, 'revision'), sequence: int(row, 'sequence'), recordedAt: int(row, 'recorded_at') };
    });
  });
}
