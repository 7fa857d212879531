/**
 * An expected revision (WIT `expected-revision`) as the Lua scripts check it (append.ts,
 * remove-stream.ts): the tag and the exact revision are ARGV[1] and ARGV[2], the script has
 * computed the stream's revision into `actual` first.
 */
import { StorageFailure } from '../errors.ts';
import type { ExpectedRevision } from '../types.ts';
import { INVALID_REPLY } from './script.ts';
import { u64Arg } from './values.ts';

/** Lua: returns {'conflict', actual} when ARGV[1..2] do not accept `actual`. */
export const EXPECTATION_LUA = `local tag = ARGV[1]
local ok
if tag == 'any' then ok = true
elseif tag == 'no-stream' then ok = actual == 0
elseif tag == 'stream-exists' then ok = actual > 0
elseif tag == 'exact' then ok = string.format('%.0f', actual) == ARGV[2]
else return redis.error_reply('${INVALID_REPLY} unknown expected-revision ' .. tag) end
if not ok then return {'conflict', string.format('%.0f', actual)} end`;

/** Refuses an expectation the scripts cannot check (a tag they do not know, an exact revision beyond u64). */
export function checkExpected(expected: ExpectedRevision): void {
  if (typeof expected !== 'object' || expected === null) throw StorageFailure.invalid('unknown expected-revision');
  switch (expected.tag) {
    case 'any':
    case 'no-stream':
    case 'stream-exists':
      return;
    case 'exact':
      u64Arg('exact revision', expected.val);
      return;
    default:
      throw StorageFailure.invalid('unknown expected-revision');
  }
}

/** ARGV[1] and ARGV[2] of a script that checks `expected`. */
export function expectationArgs(expected: ExpectedRevision): [string, string] {
  return [expected.tag, expected.tag === 'exact' ? expected.val.toString() : ''];
}
