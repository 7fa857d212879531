/**
 * Lua scripts as ioredis custom commands: the first call on a connection sends EVAL (which also
 * caches the script on the server), later calls EVALSHA; a NOSCRIPT (after SCRIPT FLUSH or a
 * server restart) falls back to EVAL by itself. Every script names all its keys in KEYS.
 */
import type { Redis } from 'ioredis';

export type Script = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

export function defineScript(redis: Redis, name: string, lua: string): Script {
  // No numberOfKeys: the key count is passed per call, so a script may take a variable number.
  redis.defineCommand(name, { lua });
  const command = (redis as unknown as Record<string, unknown>)[name];
  if (typeof command !== 'function') throw new Error(`ioredis did not define the ${name} command`);
  const call = command as (...args: unknown[]) => Promise<unknown>;
  return (keys, args) => call.call(redis, keys.length, ...keys, ...args);
}

/** Prefix of the error replies scripts raise for arguments they refuse (→ `invalid`). */
export const INVALID_REPLY = 'INVALID';
