/**
 * The checks every backend makes the same way, and the failure they throw (host/platform-answer.ts).
 */
import { StorageFailure } from '../platform-answer.ts';

export { type PlatformError, StorageFailure } from '../platform-answer.ts';

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
