/** event-store.head-sequence: the highest sequence assigned, 0 when the store is empty. */
import type { PgContext } from './connection.ts';
import { int, type Row } from '../sql/values.ts';

export function createHeadSequence({ pool, tables }: PgContext): () => Promise<bigint> {
  // MAX of the primary key is a single index seek. Appends commit in sequence order
  // (append.ts), so the committed maximum is also the end of a gap-free prefix.
  const sql = `SELECT COALESCE(MAX(sequence), 0)::bigint AS head FROM ${tables.events}`;
  return async function headSequence() {
    const { rows } = await pool.query<Row>(sql);
    return rows[0] === undefined ? 0n : int(rows[0], 'head');
  };
}
