/** AppError → gRPC status (the table of docs/grpc.md), grpc-timeout parsing, grpc-message encoding. */
import { describe, expect, it } from 'vitest';
import { AppError, StoreError } from '../errors.ts';
import { COUNTER_CHANGED } from '../counter/application/counter-changed.ts';
import { encodeGrpcMessage, GrpcCode, GrpcError } from './status.ts';

describe('GrpcError.from()', () => {
  it.each([
    ['validation', GrpcCode.INVALID_ARGUMENT],
    ['domain', GrpcCode.FAILED_PRECONDITION],
    ['concurrency', GrpcCode.ABORTED],
    ['store', GrpcCode.UNAVAILABLE],
    ['configuration', GrpcCode.UNAVAILABLE],
    ['internal', GrpcCode.INTERNAL],
  ] as const)('maps %s to status %i with the public message', (code, status) => {
    const error = GrpcError.from(new AppError(code, code === 'validation' ? 'amount must be positive' : undefined));
    expect(error.code).toBe(status);
    expect(error.appCode).toBe(code);
    expect(error.message).toBe(new AppError(code, code === 'validation' ? 'amount must be positive' : undefined).message);
  });

  it('maps repository failures through the shared conversion: conflict → ABORTED, unavailable → UNAVAILABLE', () => {
    expect(GrpcError.from(AppError.fromStore(new StoreError('conflict', 'x'), COUNTER_CHANGED)).code).toBe(GrpcCode.ABORTED);
    expect(GrpcError.from(AppError.fromStore(new StoreError('unavailable', 'secret detail'))).message).toBe('storage is unavailable, try again later');
  });

  it('turns anything unknown into INTERNAL without leaking its text', () => {
    const error = GrpcError.from(new Error('SELECT * FROM secrets'));
    expect(error.code).toBe(GrpcCode.INTERNAL);
    expect(error.message).toBe('internal error');
  });
});

describe('encodeGrpcMessage()', () => {
  it('percent-encodes non-printable, non-ASCII and % bytes', () => {
    expect(encodeGrpcMessage('amount must be positive')).toBe('amount must be positive');
    expect(encodeGrpcMessage('50% é\n')).toBe('50%25 %C3%A9%0A');
  });
});
