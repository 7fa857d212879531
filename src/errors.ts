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
  rate_limited: 'too many attempts, try again later',
};

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

/**
 * A store failure as a typed application error: an AppError passes through, a store conflict
 * becomes `concurrency` (the stream changed under the command: try again), any other store error
 * `store`, anything else AppError.from's answer.
 */
export function storeFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof StoreError) {
    return error.kind === 'conflict'
      ? new AppError('concurrency', 'the counter was changed concurrently, try again', { cause: error })
      : new AppError('store', undefined, { cause: error });
  }
  return AppError.from(error);
}
