/** event-store.stream-revision: the stream's highest revision, 0 when it has no events. */
import { checkName } from '../errors.ts';
import type { PgContext } from './connection.ts';
import { int, type Row } from '../sql/values.ts';

export type StreamRevision = (streamId: string) => Promise<bigint>;

export function createStreamRevision({ pool, tables }: PgContext): StreamRevision {
  // MAX over the UNIQUE (stream_id, revision) index: one index seek.
  const sql = `SELECT COALESCE(MAX(revision), 0)::bigint AS revision FROM ${tables.events} WHERE stream_id = $1`;
  return async function streamRevision(streamId) {
    checkName('stream id', streamId);
    const { rows } = await pool.query<Row>(sql, [streamId]);
    return rows[0] === undefined ? 0n : int(rows[0], 'revision');
  };
}
