/** @module Interface app:platform/projection-store@0.1.0 **/
/**
 * The sequence a projection has processed up to (0 = nothing yet).
 */
export function checkpoint(projection: string): bigint;
/**
 * Applies `changes` and moves the checkpoint from `expected` to `next`, all in one transaction.
 * Checkpoints never move back: `next` must not be less than `expected`. With `next` equal to
 * `expected` the documents change as of that checkpoint (upkeep of a read model between
 * events), still refused if another commit moved the checkpoint first.
 * Returns false, changing nothing, when the stored checkpoint is not `expected`
 * (another worker got there first).
 */
export function commit(projection: string, expected: bigint, next: bigint, changes: Array<DocumentChange>): boolean;
export function getDocument(key: DocumentKey): Document | undefined;
/**
 * Documents of a collection in id order, starting after `after-id`; at most `limit` (1..=1000).
 */
export function listDocuments(collection: string, afterId: string | undefined, limit: number): Array<Document>;
export type PlatformError = import('./app-platform-types.js').PlatformError;
/**
 * A read-model document. `body` is JSON text; `version` counts its writes.
 */
export interface Document {
  collection: string,
  id: string,
  body: string,
  version: bigint,
}
export interface DocumentKey {
  collection: string,
  id: string,
}
export interface DocumentPut {
  collection: string,
  id: string,
  body: string,
}
export type DocumentChange = DocumentChangePut | DocumentChangeDelete;
export interface DocumentChangePut {
  tag: 'put',
  val: DocumentPut,
}
export interface DocumentChangeDelete {
  tag: 'delete',
  val: DocumentKey,
}
