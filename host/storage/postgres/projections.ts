/**
 * projection-store: checkpoints and read-model documents. `commit` applies a batch of document
 * changes and moves the checkpoint in one transaction that first locks the projection's
 * checkpoint row (SELECT ... FOR UPDATE), so a projection's documents always match its
 * checkpoint, and of two workers racing on one projection exactly one wins.
 */
import type { PoolClient } from 'pg';
import { checkLimit, checkName, StorageFailure } from '../errors.ts';
import type { AsyncProjectionStore, DocumentChange } from '../types.ts';
import type { PgContext } from './connection.ts';
import { toDocument } from '../sql/documents.ts';
import { transaction } from './transaction.ts';
import { int, storableU64, type Row } from '../sql/values.ts';
import { param } from './values.ts';

const DOCUMENT_COLUMNS = 'collection, id, body, version';

function checkChange(change: DocumentChange): void {
  if (change.tag !== 'put' && change.tag !== 'delete') throw StorageFailure.invalid('unknown document change');
  checkName('collection', change.val.collection);
  checkName('document id', change.val.id);
}

export function createProjections({ pool, tables }: PgContext): AsyncProjectionStore {
  const selectCheckpoint = `SELECT position FROM ${tables.checkpoints} WHERE projection = $1`;
  const lockCheckpoint = `SELECT position FROM ${tables.checkpoints} WHERE projection = $1 FOR UPDATE`;
  const updateCheckpoint = `UPDATE ${tables.checkpoints} SET position = $2::bigint WHERE projection = $1`;
  // For a projection without a row yet: FOR UPDATE had nothing to lock, so the insert itself is
  // the claim. A racing first commit waits on our uncommitted row, then finds the conflict and
  // inserts nothing (RETURNING no row): it lost.
  const insertCheckpoint = `INSERT INTO ${tables.checkpoints} (projection, position) VALUES ($1, $2::bigint)
     ON CONFLICT (projection) DO NOTHING RETURNING position`;
  // version counts writes: 1 for a new document, +1 for every later put.
  const putDocument = `INSERT INTO ${tables.documents} AS d (collection, id, body, version) VALUES ($1, $2, $3, 1)
     ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body, version = d.version + 1`;
  const deleteDocument = `DELETE FROM ${tables.documents} WHERE collection = $1 AND id = $2`;
  const selectDocument = `SELECT ${DOCUMENT_COLUMNS} FROM ${tables.documents} WHERE collection = $1 AND id = $2`;
  const listFirst = `SELECT ${DOCUMENT_COLUMNS} FROM ${tables.documents} WHERE collection = $1 ORDER BY id LIMIT $2`;
  const listAfter = `SELECT ${DOCUMENT_COLUMNS} FROM ${tables.documents}
     WHERE collection = $1 AND id > $2 ORDER BY id LIMIT $3`;

  /** Moves the checkpoint from `expected` to `next` under a row lock; false when stale. */
  async function claim(client: PoolClient, projection: string, expected: bigint, next: bigint): Promise<boolean> {
    const locked = await client.query<Row>(lockCheckpoint, [projection]);
    const row = locked.rows[0];
    if (row === undefined) {
      // A projection that never ran is at 0.
      if (expected !== 0n) return false;
      const inserted = await client.query<Row>(insertCheckpoint, [projection, param(next)]);
      return inserted.rowCount === 1;
    }
    if (int(row, 'position') !== expected) return false;
    await client.query(updateCheckpoint, [projection, param(next)]);
    return true;
  }

  return {
    async checkpoint(projection) {
      checkName('projection', projection);
      const { rows } = await pool.query<Row>(selectCheckpoint, [projection]);
      return rows[0] === undefined ? 0n : int(rows[0], 'position');
    },

    async commit(projection, expected, next, changes) {
      checkName('projection', projection);
      storableU64('expected checkpoint', expected);
      storableU64('next checkpoint', next);
      // An argument error whatever the stored state: checkpoints never move back (next = expected
      // changes documents as of that checkpoint).
      if (next < expected) throw StorageFailure.invalid('next checkpoint must not be less than expected');
      // Validate everything before writing anything, so an invalid batch changes nothing.
      for (const change of changes) checkChange(change);
      return transaction(
        pool,
        async (client) => {
          if (!(await claim(client, projection, expected, next))) return false;
          // In list order: two puts of one document are two writes, the last body wins.
          for (const change of changes) {
            const { collection, id } = change.val;
            if (change.tag === 'put') await client.query(putDocument, [collection, id, change.val.body]);
            else await client.query(deleteDocument, [collection, id]);
          }
          return true;
        },
        // Stale: nothing was written, and the transaction is rolled back all the same.
        (won) => won,
      );
    },

    async getDocument(key) {
      checkName('collection', key.collection);
      checkName('document id', key.id);
      const { rows } = await pool.query<Row>(selectDocument, [key.collection, key.id]);
      return rows[0] === undefined ? undefined : toDocument(rows[0]);
    },

    async listDocuments(collection, afterId, limit) {
      checkName('collection', collection);
      checkLimit(limit);
      const { rows } = afterId === undefined ? await pool.query<Row>(listFirst, [collection, limit]) : await pool.query<Row>(listAfter, [collection, afterId, limit]);
      return rows.map(toDocument);
    },
  };
}
