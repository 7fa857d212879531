/** Converts what a failing WIT import throws (its `platform-error` payload) into a StoreError. */
import { StoreError, type StoreErrorKind } from '../../errors.ts';

type Payload = { tag: StoreErrorKind; val: unknown };

function payloadOf(error: unknown): Payload | undefined {
  const candidate = (error as { payload?: unknown } | null)?.payload ?? error;
  const tag = (candidate as { tag?: unknown } | null)?.tag;
  return tag === 'conflict' || tag === 'unavailable' || tag === 'invalid' || tag === 'internal' ? (candidate as Payload) : undefined;
}

export function toStoreError(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const payload = payloadOf(error);
  if (!payload) return new StoreError('internal', error instanceof Error ? error.message : 'platform call failed');
  const detail = typeof payload.val === 'string' ? payload.val : `revision conflict (actual ${String((payload.val as { actual?: bigint }).actual)})`;
  return new StoreError(payload.tag, detail);
}

/** Calls a WIT import, rethrowing its failure as a StoreError. */
export function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toStoreError(error);
  }
}
