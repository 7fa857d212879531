/**
 * gRPC status codes (https://grpc.github.io/grpc/core/md_doc_statuscodes.html), the error a gRPC
 * call ends with, and the one table mapping the shared AppError codes onto them.
 */
import { AppError, type AppErrorCode } from '../errors.ts';

export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/**
 * AppError code → gRPC status: validation is the caller's fault, domain is a refusal by the current
 * state (FAILED_PRECONDITION, as REST's 409: not retryable until the state changes), storage is retryable.
 */
const STATUS_BY_APP_CODE: Record<AppErrorCode, GrpcCode> = {
  validation: GrpcCode.INVALID_ARGUMENT,
  domain: GrpcCode.FAILED_PRECONDITION,
  concurrency: GrpcCode.ABORTED,
  store: GrpcCode.UNAVAILABLE,
  configuration: GrpcCode.UNAVAILABLE,
  payload_too_large: GrpcCode.RESOURCE_EXHAUSTED,
  not_found: GrpcCode.NOT_FOUND,
  method_not_allowed: GrpcCode.UNIMPLEMENTED,
  unsupported_media_type: GrpcCode.INVALID_ARGUMENT,
  internal: GrpcCode.INTERNAL,
  // The auth service's codes, for completeness: no gRPC method raises them today.
  conflict: GrpcCode.ALREADY_EXISTS,
  unauthorized: GrpcCode.UNAUTHENTICATED,
  invalid_credentials: GrpcCode.UNAUTHENTICATED,
  forbidden: GrpcCode.PERMISSION_DENIED,
  account_disabled: GrpcCode.PERMISSION_DENIED,
  rate_limited: GrpcCode.RESOURCE_EXHAUSTED,
};

/** A failure that ends a call with a gRPC status; `message` is public. */
export class GrpcError extends Error {
  readonly code: GrpcCode;
  /** The AppError code behind it, for logs; undefined for protocol-level failures. */
  readonly appCode: AppErrorCode | undefined;
  constructor(code: GrpcCode, message: string, options?: { cause?: unknown; appCode?: AppErrorCode }) {
    super(message, { cause: options?.cause });
    this.name = 'GrpcError';
    this.code = code;
    this.appCode = options?.appCode;
  }

  /** Any thrown value as a GrpcError: AppErrors by the table, anything else INTERNAL. */
  static from(error: unknown): GrpcError {
    if (error instanceof GrpcError) return error;
    const appError = AppError.from(error);
    return new GrpcError(STATUS_BY_APP_CODE[appError.code], appError.message, { cause: appError, appCode: appError.code });
  }
}

/** grpc-message is percent-encoded (gRPC over HTTP/2 spec): printable ASCII except '%' stays. */
export function encodeGrpcMessage(message: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(message)) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
