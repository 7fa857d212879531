/** A platform failure inside the auth service as a typed AppError (the counter's wording does not fit). */
import { AppError, StoreError } from '../../errors.ts';

export function authStoreFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof StoreError) {
    return error.kind === 'conflict'
      ? new AppError('conflict', 'the record was changed concurrently, try again', { cause: error })
      : new AppError('store', undefined, { cause: error });
  }
  return AppError.from(error);
}

export function isConflict(error: unknown): boolean {
  return error instanceof StoreError && error.kind === 'conflict';
}
