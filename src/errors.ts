/**
 * Typed application errors. Every failure that crosses a layer is an AppError with a code from
 * a closed set; transports (REST, gRPC, server functions) choose status codes only at the edge.
 * `message` is public: it never contains internal detail. Internal detail goes in `cause`, logged.
 */

export const APP_ERROR_CODES = [
  'validation',
  'domain',
  'concurrency',
  'conflict',
  'unauthorized',
  'invalid_credentials',
  'forbidden',
  'account_disabled',
  'rate_limited',
  'store',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'configuration',
  'internal',
] as const;

export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

/** Public messages for codes whose detail must not leak. */
const GENERIC_MESSAGES: Partial<Record<AppErrorCode, string>> = {
  store: 'storage is unavailable, try again later',
  internal: 'internal error',
  configuration: 'the service is misconfigured',
  unauthorized: 'authentication is required',
  invalid_credentials: 'invalid email or password',
  forbidden: 'not allowed',
  account_disabled: 'this account is disabled',
  rate_limited: 'too many attempts, try again later',
};

/** What a store conflict means to its caller: the code and public message it becomes. */
export interface StoreConflict {
  readonly code: 'concurrency' | 'conflict';
  readonly message: string;
}

/** A record written concurrently by another request: the default meaning of a store conflict. */
const RECORD_CHANGED: StoreConflict = { code: 'conflict', message: 'the record was changed concurrently, try again' };

export class AppError extends Error {
  readonly code: AppErrorCode;
  constructor(code: AppErrorCode, message?: string, options?: { cause?: unknown }) {
    super(message ?? GENERIC_MESSAGES[code] ?? code, options);
    this.name = 'AppError';
    this.code = code;
  }

  /** Any thrown value as an AppError; unknown values become `internal` (detail kept as cause). */
  static from(error: unknown): AppError {
    if (error instanceof AppError) return error;
    return new AppError('internal', undefined, { cause: error });
  }

  /**
   * A platform failure as a typed AppError: an AppError passes through, a store conflict becomes
   * `conflict` (what it means is the caller's: a command whose stream changed under it says
   * `concurrency`), any other store error `store`, anything else `from`'s answer.
   */
  static fromStore(error: unknown, conflict: StoreConflict = RECORD_CHANGED): AppError {
    if (error instanceof AppError) return error;
    if (error instanceof StoreError) {
      return error.kind === 'conflict' ? new AppError(conflict.code, conflict.message, { cause: error }) : new AppError('store', undefined, { cause: error });
    }
    return AppError.from(error);
  }
}

/** `rate_limited` with the wait the client should honour (sent as `Retry-After`). */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('rate_limited');
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** Failure of a platform call, as the WIT `platform-error` variant. */
export type StoreErrorKind = 'conflict' | 'unavailable' | 'invalid' | 'internal';

export class StoreError extends Error {
  readonly kind: StoreErrorKind;
  constructor(kind: StoreErrorKind, detail: string) {
    super(detail);
    this.name = 'StoreError';
    this.kind = kind;
  }
}

/** A store conflict: another writer got there first (the caller decides whether that is a retry or a refusal). */
export function isStoreConflict(error: unknown): boolean {
  return error instanceof StoreError && error.kind === 'conflict';
}

/** Internal detail of a thrown value, for log fields only (never for public messages). */
export function failureDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = `${error.name}: ${error.message}`;
  // AppError keeps the underlying failure as `cause`; that is the useful part in logs.
  return error.cause === undefined ? own : `${own} (cause: ${failureDetail(error.cause)})`;
}
