/** event-store.read-stream: one stream in revision order, forward or backward, from a revision. */
import { checkLimit, checkName } from '../errors.ts';
import type { AsyncEventStore } from '../types.ts';
import type { PgContext } from './connection.ts';
import { EVENT_COLUMNS, toRecordedEvent } from '../sql/event-rows.ts';
import { clampU64, MAX_I64, type Row } from '../sql/values.ts';
import { param } from './values.ts';

export type ReadStream = AsyncEventStore['readStream'];

export function createReadStream({ pool, tables }: PgContext): ReadStream {
  const forward = `SELECT ${EVENT_COLUMNS} FROM ${tables.events}
     WHERE stream_id = $1 AND revision >= $2::bigint ORDER BY revision ASC LIMIT $3`;
  const backward = `SELECT ${EVENT_COLUMNS} FROM ${tables.events}
     WHERE stream_id = $1 AND revision <= $2::bigint ORDER BY revision DESC LIMIT $3`;

  return async function readStream(streamId, options) {
    checkName('stream id', streamId);
    checkLimit(options.limit);
    const from = options.fromRevision;
    let sql: string;
    let bound: bigint;
    if (options.direction === 'forward') {
      // A start beyond i64 max can match nothing; clamping keeps the bind in range.
      if (from !== undefined && from > MAX_I64) return [];
      sql = forward;
      bound = clampU64(from ?? 1n);
    } else {
      sql = backward;
      bound = clampU64(from ?? MAX_I64);
    }
    const { rows } = await pool.query<Row>(sql, [streamId, param(bound), options.limit]);
    return rows.map(toRecordedEvent);
  };
}
