/** @module Interface app:platform/key-value@0.1.0 **/
export function get(namespace: string, key: string): string | undefined;
/**
 * Stores `value`, replacing any entry; `ttl-ms` none = no expiry.
 */
export function set(namespace: string, key: string, value: string, ttlMs: bigint | undefined): void;
/**
 * Removes the entry and returns it, atomically: at most one caller gets a given value.
 */
export function take(namespace: string, key: string): string | undefined;
/**
 * Adds `delta` to an integer entry (absent counts as 0) and returns the new value.
 * A newly created entry expires after `ttl-ms`; an existing one keeps its expiry.
 */
export function increment(namespace: string, key: string, delta: bigint, ttlMs: bigint): bigint;
/**
 * Removes the entry; true when one existed.
 */
export { _delete as delete };
function _delete(namespace: string, key: string): boolean;
export type PlatformError = import('./app-platform-types.js').PlatformError;
