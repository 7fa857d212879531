/**
 * event-store.read-all: every stream in global sequence order, after a sequence, paged.
 * Because appends commit in sequence order (append.ts), a reader that saw sequence n can never
 * later find a newly committed event with a sequence <= n: following read-all never skips one.
 */
import { checkLimit } from '../errors.ts';
import type { AsyncEventStore } from '../types.ts';
import type { PgContext } from './connection.ts';
import { EVENT_COLUMNS, toRecordedEvent } from '../sql/event-rows.ts';
import { MAX_I64, type Row } from '../sql/values.ts';
import { param } from './values.ts';

export type ReadAll = AsyncEventStore['readAll'];

export function createReadAll({ pool, tables }: PgContext): ReadAll {
  const sql = `SELECT ${EVENT_COLUMNS} FROM ${tables.events} WHERE sequence > $1::bigint ORDER BY sequence LIMIT $2`;
  return async function readAll(afterSequence, limit) {
    checkLimit(limit);
    // Nothing can follow i64 max; clamping keeps the bind in bigint range.
    if (afterSequence >= MAX_I64) return [];
    const after = afterSequence < 0n ? 0n : afterSequence;
    const { rows } = await pool.query<Row>(sql, [param(after), limit]);
    return rows.map(toRecordedEvent);
  };
}
