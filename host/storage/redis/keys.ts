/**
 * Every Redis key this backend uses, all under one configurable prefix so that several projects
 * (or test runs) can share a server and reset() can find exactly this project's keys.
 *
 * Each key kind has its own fixed tag after the prefix, and at most one free-form part at the
 * very end (or a length-prefixed pair for key-value), so no two logical names map to one key:
 *
 *   <prefix>schema_version         string  the migration version the data is at
 *   <prefix>seq                    string  last assigned global sequence (INCRBY)
 *   <prefix>events                 hash    sequence → event record (JSON array, see event-records.ts)
 *   <prefix>all                    zset    global index: member = score = sequence
 *   <prefix>types                  hash    event type → number of events appended (removed streams' included)
 *   <prefix>stream:<stream id>     list    the stream's sequences kept; revision n is element n-1-base
 *   <prefix>base:<stream id>       string  base: how many of the stream's oldest revisions were truncated (absent = 0)
 *   <prefix>checkpoints            hash    projection → checkpoint (decimal u64)
 *   <prefix>docs:<collection>      hash    document id → "<version>:<body>"
 *   <prefix>docids:<collection>    zset    document ids, score 0 (lexicographic paging)
 *   <prefix>kv:<n>:<namespace>:<key> string key-value entry, n = namespace length; native PX expiry
 *   <prefix>lease:<stream id>      string  `<fencing token>:<nonce>` of the stream's current turn; PX = lease time
 *   <prefix>leasetoken:<stream id> string  the stream's last fencing token (INCR)
 *   <prefix>leaseline:<stream id>  string  nonce of the waiter next in line for the lease; PX = a few polls
 */
import { StorageFailure } from '../errors.ts';

export interface RedisKeys {
  readonly prefix: string;
  readonly schemaVersion: string;
  readonly sequence: string;
  readonly events: string;
  readonly all: string;
  readonly types: string;
  readonly checkpoints: string;
  stream(streamId: string): string;
  streamBase(streamId: string): string;
  documents(collection: string): string;
  documentIds(collection: string): string;
  keyValue(namespace: string, key: string): string;
  lease(streamId: string): string;
  leaseToken(streamId: string): string;
  leaseLine(streamId: string): string;
}

export function redisKeys(prefix: string): RedisKeys {
  // An empty prefix would make reset() delete every key of the database.
  if (typeof prefix !== 'string' || prefix.length === 0) throw StorageFailure.invalid('redis key prefix must not be empty');
  return {
    prefix,
    schemaVersion: `${prefix}schema_version`,
    sequence: `${prefix}seq`,
    events: `${prefix}events`,
    all: `${prefix}all`,
    types: `${prefix}types`,
    checkpoints: `${prefix}checkpoints`,
    stream: (streamId) => `${prefix}stream:${streamId}`,
    streamBase: (streamId) => `${prefix}base:${streamId}`,
    documents: (collection) => `${prefix}docs:${collection}`,
    documentIds: (collection) => `${prefix}docids:${collection}`,
    keyValue: (namespace, key) => `${prefix}kv:${namespace.length}:${namespace}:${key}`,
    lease: (streamId) => `${prefix}lease:${streamId}`,
    leaseToken: (streamId) => `${prefix}leasetoken:${streamId}`,
    leaseLine: (streamId) => `${prefix}leaseline:${streamId}`,
  };
}

/** A SCAN MATCH pattern for every key starting with `prefix`, glob metacharacters escaped. */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
}
