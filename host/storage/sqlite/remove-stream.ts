/**
 * event-store.remove-stream: deletes a stream's events and adds them to the per-type totals of
 * removed events (app_removed_event_counts) in one IMMEDIATE transaction, so count-by-type never
 * sees them gone from both places or neither. AUTOINCREMENT keeps their sequences unused.
 */
import type { DatabaseSync } from 'node:sqlite';
import { checkName } from '../errors.ts';
import { immediate } from './transaction.ts';

export function createRemoveStream(db: DatabaseSync): (streamId: string) => bigint {
  const tally = db.prepare(
    `INSERT INTO app_removed_event_counts (event_type, count)
       SELECT event_type, COUNT(*) FROM app_events WHERE stream_id = ? GROUP BY event_type
     ON CONFLICT (event_type) DO UPDATE SET count = count + excluded.count`,
  );
  const remove = db.prepare('DELETE FROM app_events WHERE stream_id = ?');
  return function removeStream(streamId) {
    checkName('stream id', streamId);
    return immediate(db, () => {
      tally.run(streamId);
      return BigInt(remove.run(streamId).changes);
    });
  };
}
