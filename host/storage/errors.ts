/**
 * Storage failures as the WIT `platform-error` variant. jco passes an error's own `payload`
 * property to the guest as the `err` side of a `result`, so backends throw these.
 */
import type { PlatformError } from '../../src/contract/wit/interfaces/app-platform-types.js';
import type { ExpectedRevision } from './types.ts';

export type { PlatformError };

export class StorageFailure extends Error {
  readonly payload: PlatformError;
  constructor(payload: PlatformError) {
    super(payload.tag === 'conflict' ? `revision conflict on ${payload.val.streamId}` : `${payload.tag}: ${payload.val}`);
    this.name = 'StorageFailure';
    this.payload = payload;
  }
  get code(): PlatformError['tag'] {
    return this.payload.tag;
  }
  static conflict(streamId: string, expected: ExpectedRevision, actual: bigint): StorageFailure {
    return new StorageFailure({ tag: 'conflict', val: { streamId, expected, actual } });
  }
  static unavailable(message: string): StorageFailure {
    return new StorageFailure({ tag: 'unavailable', val: message });
  }
  static invalid(message: string): StorageFailure {
    return new StorageFailure({ tag: 'invalid', val: message });
  }
  static internal(message: string): StorageFailure {
    return new StorageFailure({ tag: 'internal', val: message });
  }
}

/** Validates arguments every backend checks the same way. */
export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw StorageFailure.invalid('limit must be 1..=1000');
}

export function checkName(kind: string, value: string): void {
  if (value.length === 0 || value.length > 512) throw StorageFailure.invalid(`${kind} must be 1..=512 characters`);
}

/**
 * Wraps every method of an object of async functions so that whatever it throws or rejects with
 * becomes a StorageFailure through the backend's own `toFailure` mapping.
 */
export function guardAllAsync<T extends object>(toFailure: (error: unknown) => StorageFailure, methods: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(methods)) {
    if (typeof value !== 'function') {
      guarded[key] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => Promise<unknown>;
    guarded[key] = async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (error) {
        throw toFailure(error);
      }
    };
  }
  return guarded as T;
}
