/** The response cache's validation read (../stream-heads.ts): one statement for every stream, one round trip. */
import { checkName } from '../errors.ts';
import { NO_HEAD, type StreamHead } from '../stream-heads.ts';
import type { PgContext } from './connection.ts';
import { int, type Row } from '../sql/values.ts';

export function createStreamHeads({ pool, tables }: PgContext): (streamIds: readonly string[]) => Promise<StreamHead[]> {
  // One index seek per stream over UNIQUE (stream_id, revision); streams without events come back as NULLs.
  const sql = `SELECT s.ord, e.revision, e.sequence, e.recorded_at
    FROM unnest($1::text[]) WITH ORDINALITY AS s(id, ord)
    LEFT JOIN LATERAL (
      SELECT revision, sequence, recorded_at FROM ${tables.events} WHERE stream_id = s.id ORDER BY revision DESC LIMIT 1
    ) e ON true
    ORDER BY s.ord`;
  return async function streamHeads(streamIds) {
    for (const id of streamIds) checkName('stream id', id);
    if (streamIds.length === 0) return [];
    const { rows } = await pool.query<Row>(sql, [streamIds]);
    return rows.map((row) => (row['revision'] === null ? NO_HEAD : { revision: int(row, 'revision'), sequence: int(row, 'sequence'), recordedAt: int(row, 'recorded_at') }));
  };
}
