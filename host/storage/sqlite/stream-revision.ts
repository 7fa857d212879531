/** event-store.stream-revision: the stream's highest revision, 0 when it has no events. */
import type { DatabaseSync } from 'node:sqlite';
import { checkName } from '../errors.ts';
import { int } from '../sql/values.ts';

export function createStreamRevision(db: DatabaseSync): (streamId: string) => bigint {
  // MAX over the UNIQUE (stream_id, revision) index: one index seek.
  const select = db.prepare('SELECT COALESCE(MAX(revision), 0) AS revision FROM app_events WHERE stream_id = ?');
  return function streamRevision(streamId) {
    checkName('stream id', streamId);
    const row = select.get(streamId);
    return row === undefined ? 0n : int(row, 'revision');
  };
}
