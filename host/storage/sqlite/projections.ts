/**
 * projection-store: checkpoints and read-model documents. `commit` applies a batch of document
 * changes and moves the checkpoint in one IMMEDIATE transaction, so a projection's documents
 * always match its checkpoint, and two workers racing on one projection cannot both win.
 */
import type { DatabaseSync } from 'node:sqlite';
import { checkLimit, checkName, StorageFailure } from '../errors.ts';
import type { DocumentChange, DocumentKey, StoredDocument } from '../types.ts';
import { toDocument } from '../sql/documents.ts';
import { immediate } from './transaction.ts';
import { int, storableU64, type Row } from '../sql/values.ts';

export interface SqliteProjections {
  checkpoint(projection: string): bigint;
  commit(projection: string, expected: bigint, next: bigint, changes: DocumentChange[]): boolean;
  getDocument(key: DocumentKey): StoredDocument | undefined;
  listDocuments(collection: string, afterId: string | undefined, limit: number): StoredDocument[];
}

function checkChange(change: DocumentChange): void {
  if (change.tag !== 'put' && change.tag !== 'delete') throw StorageFailure.invalid('unknown document change');
  checkName('collection', change.val.collection);
  checkName('document id', change.val.id);
}

export function createProjections(db: DatabaseSync): SqliteProjections {
  const selectCheckpoint = db.prepare('SELECT position FROM app_checkpoints WHERE projection = ?');
  const upsertCheckpoint = db.prepare(
    `INSERT INTO app_checkpoints (projection, position) VALUES (?, ?)
     ON CONFLICT (projection) DO UPDATE SET position = excluded.position`,
  );
  // version counts writes: 1 for a new document, +1 for every later put.
  const putDocument = db.prepare(
    `INSERT INTO app_documents (collection, id, body, version) VALUES (?, ?, ?, 1)
     ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body, version = app_documents.version + 1`,
  );
  const deleteDocument = db.prepare('DELETE FROM app_documents WHERE collection = ? AND id = ?');
  const selectDocument = db.prepare('SELECT collection, id, body, version FROM app_documents WHERE collection = ? AND id = ?');
  const listFirst = db.prepare('SELECT collection, id, body, version FROM app_documents WHERE collection = ? ORDER BY id LIMIT ?');
  const listAfter = db.prepare('SELECT collection, id, body, version FROM app_documents WHERE collection = ? AND id > ? ORDER BY id LIMIT ?');

  function checkpoint(projection: string): bigint {
    checkName('projection', projection);
    const row = selectCheckpoint.get(projection);
    return row === undefined ? 0n : int(row, 'position');
  }

  return {
    checkpoint,

    commit(projection, expected, next, changes) {
      checkName('projection', projection);
      storableU64('expected checkpoint', expected);
      storableU64('next checkpoint', next);
      // An argument error whatever the stored state: checkpoints never move back (next = expected
      // changes documents as of that checkpoint).
      if (next < expected) throw StorageFailure.invalid('next checkpoint must not be less than expected');
      // Validate everything before writing anything, so an invalid batch changes nothing.
      for (const change of changes) checkChange(change);
      return immediate(db, () => {
        if (checkpoint(projection) !== expected) return false;
        for (const change of changes) {
          const { collection, id } = change.val;
          if (change.tag === 'put') putDocument.run(collection, id, change.val.body);
          else deleteDocument.run(collection, id);
        }
        upsertCheckpoint.run(projection, next);
        return true;
      });
    },

    getDocument(key) {
      checkName('collection', key.collection);
      checkName('document id', key.id);
      const row = selectDocument.get(key.collection, key.id);
      return row === undefined ? undefined : toDocument(row);
    },

    listDocuments(collection, afterId, limit) {
      checkName('collection', collection);
      checkLimit(limit);
      const rows = afterId === undefined ? listFirst.all(collection, limit) : listAfter.all(collection, afterId, limit);
      return (rows as Row[]).map(toDocument);
    },
  };
}
