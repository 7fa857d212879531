/** event-store.read-all: every stream in global sequence order, after a sequence, paged. */
import type { DatabaseSync } from 'node:sqlite';
import { checkLimit } from '../errors.ts';
import type { RecordedEvent } from '../types.ts';
import { EVENT_COLUMNS, toRecordedEvent } from '../sql/event-rows.ts';
import { MAX_I64, type Row } from '../sql/values.ts';

export type ReadAll = (afterSequence: bigint, limit: number) => RecordedEvent[];

export function createReadAll(db: DatabaseSync): ReadAll {
  const select = db.prepare(`SELECT ${EVENT_COLUMNS} FROM app_events WHERE sequence > ? ORDER BY sequence LIMIT ?`);
  return function readAll(afterSequence, limit) {
    checkLimit(limit);
    if (afterSequence >= MAX_I64) return [];
    const after = afterSequence < 0n ? 0n : afterSequence;
    return (select.all(after, limit) as Row[]).map(toRecordedEvent);
  };
}
