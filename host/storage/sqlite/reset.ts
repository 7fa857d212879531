/**
 * reset(): empties every `app_`-prefixed table (found in sqlite_master, so tables added by later
 * migrations are included) and restarts their AUTOINCREMENT counters, so the next event is
 * sequence 1 again. The schema and schema_migrations are kept; other tables are not touched.
 */
import type { DatabaseSync } from 'node:sqlite';
import { immediate } from './transaction.ts';
import { text, type Row } from '../sql/values.ts';

export function createReset(db: DatabaseSync): () => void {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'app\\_%' ESCAPE '\\' ORDER BY name`);
  return function reset() {
    immediate(db, () => {
      // Deletion order must not matter once later migrations add foreign keys between tables.
      db.exec('PRAGMA defer_foreign_keys = ON');
      const names = (tables.all() as Row[]).map((row) => text(row, 'name'));
      for (const name of names) db.exec(`DELETE FROM "${name.replaceAll('"', '""')}"`);
      // sqlite_sequence exists because app_events uses AUTOINCREMENT.
      const forget = db.prepare('DELETE FROM sqlite_sequence WHERE name = ?');
      for (const name of names) forget.run(name);
    });
  };
}
