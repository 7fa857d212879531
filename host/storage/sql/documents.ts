/** The app_documents row of a read-model document, as the projection store returns it. */
import type { StoredDocument } from '../types.ts';
import { int, text, type Row } from './values.ts';

export function toDocument(row: Row): StoredDocument {
  return {
    collection: text(row, 'collection'),
    id: text(row, 'id'),
    body: text(row, 'body'),
    version: int(row, 'version'),
  };
}
