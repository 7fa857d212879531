/**
 * projection-store: checkpoints (one hash, projection → decimal u64) and read-model documents
 * (per collection a hash id → "<version>:<body>" plus a zset of ids with score 0, whose
 * lexicographic order pages list-documents). `commit` is one Lua script: it compares the stored
 * checkpoint with `expected` as strings (exact for any u64), and only then applies every change
 * and moves the checkpoint, so a projection's documents always match its checkpoint and two
 * workers racing on one projection cannot both win.
 */
import type { Redis } from 'ioredis';
import { checkLimit, checkName, StorageFailure } from '../errors.ts';
import type { AsyncProjectionStore, DocumentChange, StoredDocument } from '../types.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { arrayReply, u64Arg, u64Reply } from './values.ts';

/**
 * KEYS: checkpoints, then per distinct collection of the batch its documents hash and ids zset.
 * ARGV: projection, expected, next, then per change: 'put' | 'delete', collection number
 * (1-based, into the KEYS pairs), id, body ('' for a delete).
 * Returns 1 when applied, 0 when the stored checkpoint is not `expected`.
 */
export const COMMIT_LUA = `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or '0'
if current ~= ARGV[2] then return 0 end
for i = 4, #ARGV, 4 do
  local c = tonumber(ARGV[i + 1])
  local docs, ids, id = KEYS[2 * c], KEYS[2 * c + 1], ARGV[i + 2]
  if ARGV[i] == 'put' then
    local old = redis.call('HGET', docs, id)
    local version = 1
    if old then
      version = tonumber(string.sub(old, 1, string.find(old, ':', 1, true) - 1)) + 1
    end
    redis.call('HSET', docs, id, string.format('%.0f', version) .. ':' .. ARGV[i + 3])
    redis.call('ZADD', ids, 0, id)
  else
    redis.call('HDEL', docs, id)
    redis.call('ZREM', ids, id)
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/**
 * KEYS: documents hash, ids zset. ARGV: ZRANGEBYLEX start ('-' or '(' .. after-id), limit.
 * Returns id, stored value, id, stored value...
 */
export const LIST_DOCUMENTS_LUA = `
local ids = redis.call('ZRANGEBYLEX', KEYS[2], ARGV[1], '+', 'LIMIT', 0, ARGV[2])
if #ids == 0 then return {} end
local values = redis.call('HMGET', KEYS[1], unpack(ids))
local out = {}
for i = 1, #ids do
  out[2 * i - 1] = ids[i]
  out[2 * i] = values[i]
end
return out
`;

function toDocument(collection: string, id: string, stored: unknown): StoredDocument {
  const colon = typeof stored === 'string' ? stored.indexOf(':') : -1;
  if (typeof stored !== 'string' || colon < 1) throw StorageFailure.internal('redis: a stored document is malformed');
  return { collection, id, body: stored.slice(colon + 1), version: u64Reply(stored.slice(0, colon), 'document version') };
}

function checkChange(change: DocumentChange): void {
  if (typeof change !== 'object' || change === null || (change.tag !== 'put' && change.tag !== 'delete')) {
    throw StorageFailure.invalid('unknown document change');
  }
  checkName('collection', change.val.collection);
  checkName('document id', change.val.id);
  if (change.tag === 'put' && typeof change.val.body !== 'string') throw StorageFailure.invalid('document body must be text');
}

export function createProjections(redis: Redis, keys: RedisKeys): AsyncProjectionStore {
  const commitScript = defineScript(redis, 'wasiAppCommit', COMMIT_LUA);
  const listScript = defineScript(redis, 'wasiAppListDocuments', LIST_DOCUMENTS_LUA);

  return {
    async checkpoint(projection) {
      checkName('projection', projection);
      const stored = await redis.hget(keys.checkpoints, projection);
      return stored === null ? 0n : u64Reply(stored, 'checkpoint');
    },

    async commit(projection, expected, next, changes) {
      checkName('projection', projection);
      u64Arg('expected checkpoint', expected);
      u64Arg('next checkpoint', next);
      // An argument error whatever the stored state: checkpoints never move back (next = expected
      // changes documents as of that checkpoint).
      if (next < expected) throw StorageFailure.invalid('next checkpoint must not be less than expected');
      // Validate everything before sending anything, so an invalid batch changes nothing.
      for (const change of changes) checkChange(change);

      const collections = new Map<string, number>();
      const scriptKeys = [keys.checkpoints];
      const args: string[] = [projection, expected.toString(), next.toString()];
      for (const change of changes) {
        const { collection, id } = change.val;
        let number = collections.get(collection);
        if (number === undefined) {
          number = collections.size + 1;
          collections.set(collection, number);
          scriptKeys.push(keys.documents(collection), keys.documentIds(collection));
        }
        args.push(change.tag, String(number), id, change.tag === 'put' ? change.val.body : '');
      }
      return (await commitScript(scriptKeys, args)) === 1;
    },

    async getDocument(key) {
      checkName('collection', key.collection);
      checkName('document id', key.id);
      const stored = await redis.hget(keys.documents(key.collection), key.id);
      return stored === null ? undefined : toDocument(key.collection, key.id, stored);
    },

    async listDocuments(collection, afterId, limit) {
      checkName('collection', collection);
      checkLimit(limit);
      if (afterId !== undefined && typeof afterId !== 'string') throw StorageFailure.invalid('after-id must be text');
      const start = afterId === undefined ? '-' : `(${afterId}`;
      const reply = arrayReply(await listScript([keys.documents(collection), keys.documentIds(collection)], [start, limit]), 'document list');
      const documents: StoredDocument[] = [];
      for (let i = 0; i + 1 < reply.length; i += 2) {
        const id = reply[i];
        if (typeof id !== 'string') throw StorageFailure.internal('redis: malformed document list');
        // An id without a document cannot happen (one script writes both); skip it if it does.
        if (reply[i + 1] !== null) documents.push(toDocument(collection, id, reply[i + 1]));
      }
      return documents;
    },
  };
}
