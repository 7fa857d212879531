/**
 * event-store.count-by-type: events per type for types starting with a prefix.
 * starts_with() compares the prefix literally (LIKE's `%`, `_` and `\` mean nothing to it) and
 * case-sensitively; on the "C"-collated event_type column PostgreSQL (15+) turns it into a
 * range scan of the app_events_by_type index.
 */
import { StorageFailure } from '../errors.ts';
import type { TypeCount } from '../types.ts';
import type { PgContext } from './connection.ts';
import { int, text, type Row } from './values.ts';

export function createCountByType({ pool, tables }: PgContext): (typePrefix: string) => Promise<TypeCount[]> {
  const all = `SELECT event_type, COUNT(*) AS n FROM ${tables.events} GROUP BY event_type ORDER BY event_type`;
  const matching = `SELECT event_type, COUNT(*) AS n FROM ${tables.events}
     WHERE starts_with(event_type, $1) GROUP BY event_type ORDER BY event_type`;
  return async function countByType(typePrefix) {
    if (typePrefix.length > 512) throw StorageFailure.invalid('type prefix must be 0..=512 characters');
    const { rows } = typePrefix === '' ? await pool.query<Row>(all) : await pool.query<Row>(matching, [typePrefix]);
    return rows.map((row) => ({ eventType: text(row, 'event_type'), count: int(row, 'n') }));
  };
}
