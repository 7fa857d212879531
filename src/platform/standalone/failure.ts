/**
 * Failures of the file store, shaped as the WIT `platform-error` variant (`payload`), so the
 * standalone platform converts them exactly as it converts a hosted import's error, and the
 * conformance suite can compare them with the other backends' failures.
 */
import type { ExpectedRevision, PlatformError } from '../ports.ts';

export class FileStoreFailure extends Error {
  readonly payload: PlatformError;
  constructor(payload: PlatformError) {
    super(payload.tag === 'conflict' ? `revision conflict on a stream (actual ${payload.val.actual})` : `${payload.tag}: ${payload.val}`);
    this.name = 'FileStoreFailure';
    this.payload = payload;
  }
  static conflict(streamId: string, expected: ExpectedRevision, actual: bigint): FileStoreFailure {
    return new FileStoreFailure({ tag: 'conflict', val: { streamId, expected, actual } });
  }
  static invalid(message: string): FileStoreFailure {
    return new FileStoreFailure({ tag: 'invalid', val: message });
  }
  static unavailable(message: string): FileStoreFailure {
    return new FileStoreFailure({ tag: 'unavailable', val: message });
  }
}

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw FileStoreFailure.invalid('limit must be 1..=1000');
}

export function checkName(kind: string, value: string): void {
  if (value.length === 0 || value.length > 512) throw FileStoreFailure.invalid(`${kind} must be 1..=512 characters`);
}

/** Any failure of a filesystem call (not one of ours) means the data directory is not usable now. */
export function toFileStoreFailure(error: unknown): FileStoreFailure {
  if (error instanceof FileStoreFailure) return error;
  return FileStoreFailure.unavailable(error instanceof Error ? error.message : String(error));
}
