/** @module Interface app:platform/erasure@0.1.0 **/
/**
 * Removes from the store's own files the copies of data removed so far, as far as the backend
 * can from inside (SQLite: a truncating write-ahead-log checkpoint, deleted content being
 * overwritten at once). Returns once done, or once the work is handed to a retry when other
 * readers of the store hold it back for longer than a moment (the host logs it). Backends that
 * cannot do it from inside (PostgreSQL, Redis) return at once; docs/storage.md says what their
 * operators run.
 */
export function scrub(): void;
export type PlatformError = import('./app-platform-types.js').PlatformError;
