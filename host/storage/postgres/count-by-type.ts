/**
 * event-store.count-by-type: events per type for types starting with a prefix, those of removed
 * streams (app_removed_event_counts, remove-stream.ts) included.
 * starts_with() compares the prefix literally (LIKE's `%`, `_` and `\` mean nothing to it) and
 * case-sensitively; on the "C"-collated event_type column PostgreSQL (15+) turns it into a
 * range scan of the app_events_by_type index.
 */
import { StorageFailure } from '../errors.ts';
import type { TypeCount } from '../types.ts';
import type { PgContext } from './connection.ts';
import { int, text, type Row } from '../sql/values.ts';

export function createCountByType({ pool, tables }: PgContext): (typePrefix: string) => Promise<TypeCount[]> {
  const counts = (where: string) => `SELECT event_type, SUM(n)::bigint AS n FROM (
       SELECT event_type, COUNT(*) AS n FROM ${tables.events} ${where} GROUP BY event_type
       UNION ALL SELECT event_type, count AS n FROM ${tables.removedCounts} ${where}
     ) AS counted GROUP BY event_type ORDER BY event_type`;
  const all = counts('');
  const matching = counts('WHERE starts_with(event_type, $1)');
  return async function countByType(typePrefix) {
    if (typePrefix.length > 512) throw StorageFailure.invalid('type prefix must be 0..=512 characters');
    const { rows } = typePrefix === '' ? await pool.query<Row>(all) : await pool.query<Row>(matching, [typePrefix]);
    return rows.map((row) => ({ eventType: text(row, 'event_type'), count: int(row, 'n') }));
  };
}
