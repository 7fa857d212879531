/**
 * What every part of the storage conformance suite shares: the context a backend's run gives it
 * (how to open backends, the run's options) and the small builders and probes the cases use.
 */
import { expect } from 'vitest';
import { StorageFailure, type PlatformError } from '../../../host/storage/errors.ts';
import type { DocumentChange, ExpectedRevision, NewEvent, RecordedEvent, StorageBackend } from '../../../host/storage/types.ts';

export interface StorageContractOptions {
  /** Another backend over the storage of the latest factory() result. */
  openSecond?: () => Promise<StorageBackend>;
  /** Timeout for the concurrency test (network backends need more). */
  concurrencyTimeoutMs?: number;
}

/** What a part of the suite gets from the run: backends it opens are closed after each case. */
export interface ContractContext {
  /** A backend over empty storage. */
  open(): Promise<StorageBackend>;
  /** Another backend over the storage of the latest open(), or undefined when the backend has no such thing. */
  second(): Promise<StorageBackend | undefined>;
  readonly options: StorageContractOptions;
}

export const U64_MAX = 2n ** 64n - 1n;
/** Above 2^53: a value that a JS number would silently round. */
export const BEYOND_DOUBLE = 2n ** 53n + 1n;

export const any: ExpectedRevision = { tag: 'any' };
export const noStream: ExpectedRevision = { tag: 'no-stream' };
export const streamExists: ExpectedRevision = { tag: 'stream-exists' };
export const exact = (val: bigint): ExpectedRevision => ({ tag: 'exact', val });

export function event(eventType: string, payload: unknown = {}, metadata: unknown = {}): NewEvent {
  return { eventType, payload: JSON.stringify(payload), metadata: JSON.stringify(metadata) };
}

export const put = (collection: string, id: string, body: unknown): DocumentChange => ({
  tag: 'put',
  val: { collection, id, body: JSON.stringify(body) },
});
export const del = (collection: string, id: string): DocumentChange => ({ tag: 'delete', val: { collection, id } });

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Yields to other tasks, so concurrent writers interleave even on a synchronous backend. */
export const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `call` (sync or async) and returns the platform-error it fails with. */
export async function failure(call: () => unknown): Promise<PlatformError> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageFailure);
    return (error as StorageFailure).payload;
  }
  throw new Error(`expected a StorageFailure, got ${String(result)}`);
}

export async function failureTag(call: () => unknown): Promise<PlatformError['tag']> {
  return (await failure(call)).tag;
}

export function isConflict(error: unknown): boolean {
  return error instanceof StorageFailure && error.payload.tag === 'conflict';
}

export const sequences = (events: RecordedEvent[]) => events.map((e) => e.sequence);
export const revisions = (events: RecordedEvent[]) => events.map((e) => e.revision);
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
