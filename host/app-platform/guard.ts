/**
 * Wraps a backend call so that only `StorageFailure`s cross into the guest: jco turns their
 * `payload` into the WIT `platform-error`; any other exception would trap the instance.
 */
import { StorageFailure } from '../platform-answer.ts';
import { describeError, type HostLogger } from '../log.ts';

export function guard<A extends unknown[], R>(logger: HostLogger, operation: string, fn: (...args: A) => R | Promise<R>): (...args: A) => R | Promise<R> {
  const convert = (error: unknown): never => {
    if (error instanceof StorageFailure) throw error;
    logger.log('error', 'storage operation failed unexpectedly', {
      code: 'storage_internal',
      operation,
      error: describeError(error),
    });
    throw StorageFailure.internal(`${operation} failed`);
  };
  return (...args: A) => {
    try {
      const result = fn(...args);
      return result instanceof Promise ? result.catch(convert) : result;
    } catch (error) {
      return convert(error);
    }
  };
}
