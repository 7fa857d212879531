/** event-store.read-stream: one stream in revision order, forward or backward, from a revision. */
import type { DatabaseSync } from 'node:sqlite';
import { checkLimit, checkName } from '../errors.ts';
import type { ReadStreamOptions, RecordedEvent } from '../types.ts';
import { EVENT_COLUMNS, toRecordedEvent } from '../sql/event-rows.ts';
import { clampU64, MAX_I64, type Row } from '../sql/values.ts';

export type ReadStream = (streamId: string, options: ReadStreamOptions) => RecordedEvent[];

export function createReadStream(db: DatabaseSync): ReadStream {
  const forward = db.prepare(
    `SELECT ${EVENT_COLUMNS} FROM app_events
     WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
  );
  const backward = db.prepare(
    `SELECT ${EVENT_COLUMNS} FROM app_events
     WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
  );

  return function readStream(streamId, options) {
    checkName('stream id', streamId);
    checkLimit(options.limit);
    const from = options.fromRevision;
    if (options.direction === 'forward') {
      // A start beyond i64 max can match nothing; clamping keeps the bind in range.
      if (from !== undefined && from > MAX_I64) return [];
      return (forward.all(streamId, clampU64(from ?? 1n), options.limit) as Row[]).map(toRecordedEvent);
    }
    return (backward.all(streamId, clampU64(from ?? MAX_I64), options.limit) as Row[]).map(toRecordedEvent);
  };
}
