/**
 * reset(): empties every `app_`-prefixed table of this backend's schema (found in the catalog,
 * so tables added by later migrations are included) in one TRUNCATE ... RESTART IDENTITY, and
 * re-seeds the sequence counter at 0, so the next event is sequence 1 again. The schema and
 * schema_migrations are kept; other tables and other schemas are not touched.
 */
import { escapeIdentifier } from 'pg';
import type { PgContext } from './connection.ts';
import { TABLE_PREFIX } from './tables.ts';
import { transaction } from './transaction.ts';
import { text, type Row } from '../sql/values.ts';

export function createReset({ pool, tables }: PgContext): () => Promise<void> {
  const list = `SELECT tablename FROM pg_catalog.pg_tables
     WHERE schemaname = $1 AND starts_with(tablename, $2) ORDER BY tablename`;
  return async function reset() {
    await transaction(pool, async (client) => {
      const { rows } = await client.query<Row>(list, [tables.schemaName, TABLE_PREFIX]);
      const names = rows.map((row) => `${tables.schema}.${escapeIdentifier(text(row, 'tablename'))}`);
      // One statement: no foreign-key ordering issues, one ACCESS EXCLUSIVE lock per table.
      if (names.length > 0) await client.query(`TRUNCATE ${names.join(', ')} RESTART IDENTITY`);
      await client.query(`INSERT INTO ${tables.sequence} (id, value) VALUES (true, 0)
         ON CONFLICT (id) DO UPDATE SET value = 0`);
    });
  };
}
