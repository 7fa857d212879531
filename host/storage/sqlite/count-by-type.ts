/**
 * event-store.count-by-type: events per type for types starting with a prefix, those of removed
 * streams (app_removed_event_counts, remove-stream.ts) included.
 * The prefix is matched literally with GLOB (case-sensitive, like the rest of the store),
 * escaping GLOB's own metacharacters; LIKE's `%` and `_` mean nothing to GLOB. SQLite turns a
 * GLOB with a literal prefix into a range scan of the app_events_by_type index.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StorageFailure } from '../errors.ts';
import type { TypeCount } from '../types.ts';
import { int, text, type Row } from '../sql/values.ts';

/** `*`, `?` and `[` are GLOB metacharacters; `[x]` matches x literally. */
export function globPrefix(prefix: string): string {
  return `${prefix.replace(/[*?[]/g, (c) => `[${c}]`)}*`;
}

export function createCountByType(db: DatabaseSync): (typePrefix: string) => TypeCount[] {
  const counts = (where: string) =>
    db.prepare(
      `SELECT event_type, SUM(n) AS n FROM (
         SELECT event_type, COUNT(*) AS n FROM app_events ${where} GROUP BY event_type
         UNION ALL SELECT event_type, count AS n FROM app_removed_event_counts ${where}
       ) GROUP BY event_type ORDER BY event_type`,
    );
  const all = counts('');
  const matching = counts('WHERE event_type GLOB ?1');
  return function countByType(typePrefix) {
    if (typePrefix.length > 512) throw StorageFailure.invalid('type prefix must be 0..=512 characters');
    const rows = (typePrefix === '' ? all.all() : matching.all(globPrefix(typePrefix))) as Row[];
    return rows.map((row) => ({ eventType: text(row, 'event_type'), count: int(row, 'n') }));
  };
}
