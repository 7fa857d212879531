/**
 * Where an address change keeps what waits (namespace `auth-email-change`): the pending change of
 * an account (`change:<user id>`: the new address and its link's id, for the link's 24 hours) and
 * each undo (`undo:<user id>:<old address hash>`: the old address, for the undo link's 7 days); and
 * the key the change link is issued under: the account, not an address (two accounts may ask for
 * one address).
 */
import * as v from 'valibot';
import { sha256Hex } from './secrets.ts';

export const PendingSchema = v.object({ link_id: v.string(), email: v.string(), email_hash: v.string(), requested_at: v.number() });
export const UndoSchema = v.object({ email: v.string() });

export const pendingKey = (userId: string) => `change:${userId}`;
export const undoKey = (userId: string, oldHash: string) => `undo:${userId}:${oldHash}`;
export const changeLinkKey = (userId: string): Promise<string> => sha256Hex(`email-change\n${userId}`);

/** A stored record read back with its schema; undefined when absent or not of that shape. */
export function parseStored<T extends v.GenericSchema>(schema: T, text: string | undefined): v.InferOutput<T> | undefined {
  if (text === undefined) return undefined;
  try {
    const result = v.safeParse(schema, JSON.parse(text));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}
