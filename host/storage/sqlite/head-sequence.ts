/** event-store.head-sequence: the highest sequence assigned, 0 when the store is empty. */
import type { DatabaseSync } from 'node:sqlite';
import { int } from '../sql/values.ts';

export function createHeadSequence(db: DatabaseSync): () => bigint {
  // MAX of the rowid is a single b-tree seek.
  const select = db.prepare('SELECT COALESCE(MAX(sequence), 0) AS head FROM app_events');
  return function headSequence() {
    const row = select.get();
    return row === undefined ? 0n : int(row, 'head');
  };
}
