/**
 * Qualified names of this backend's tables inside its schema. Every runtime query names its
 * tables through these, so one database can hold several independent stores (one per schema),
 * and nothing here depends on the connection's search_path.
 */
import { escapeIdentifier } from 'pg';
import { StorageFailure } from '../errors.ts';

export const DEFAULT_SCHEMA = 'wasi_app';

/** Data tables are prefixed `app_` so reset() can find them all (migrations.ts). */
export const TABLE_PREFIX = 'app_';

export interface Tables {
  /** The schema name as given (unquoted). */
  readonly schemaName: string;
  /** The schema as a quoted identifier. */
  readonly schema: string;
  readonly migrations: string;
  readonly sequence: string;
  readonly events: string;
  readonly checkpoints: string;
  readonly documents: string;
  readonly kv: string;
  readonly removedCounts: string;
}

/**
 * A plain identifier: letters, digits, `_` and `$`, not starting with a digit, at most 63 bytes
 * (PostgreSQL's NAMEDATALEN - 1; longer names would be silently truncated).
 */
export function checkSchemaName(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(schema)) {
    throw StorageFailure.invalid(`postgres schema name ${JSON.stringify(schema)} must be a plain identifier of 1..=63 characters`);
  }
  return schema;
}

export function tablesIn(schemaName: string): Tables {
  const schema = escapeIdentifier(checkSchemaName(schemaName));
  const table = (name: string) => `${schema}.${escapeIdentifier(name)}`;
  return {
    schemaName,
    schema,
    migrations: table('schema_migrations'),
    sequence: table('app_event_sequence'),
    events: table('app_events'),
    checkpoints: table('app_checkpoints'),
    documents: table('app_documents'),
    kv: table('app_kv'),
    removedCounts: table('app_removed_event_counts'),
  };
}
