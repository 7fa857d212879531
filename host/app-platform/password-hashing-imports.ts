/**
 * The app:platform/password-hashing import: Argon2id (node:crypto) on libuv's thread pool, with
 * stored scrypt hashes still verified (host/password/index.ts). The functions return
 * promises, and scripts/build.ts lists them as JSPI suspending imports, so a hashing guest
 * suspends its own instance while the event loop keeps serving others.
 */
import type { HostLogger } from '../log.ts';
import { hashPassword, UnrecognizedHash, verifyPassword } from '../password/index.ts';
import { StorageFailure } from '../platform-answer.ts';
import { describeError } from '../log.ts';

export function passwordHashingImports(logger: HostLogger) {
  // Never log the password or the hash: only what failed.
  const fail = (operation: string, error: unknown): never => {
    if (error instanceof UnrecognizedHash) throw StorageFailure.invalid(error.message);
    logger.log('error', 'password hashing failed', { code: 'password_hashing_failed', operation, error: describeError(error) });
    throw StorageFailure.internal(`${operation} failed`);
  };
  return {
    'app:platform/password-hashing': {
      hash: (password: string) => hashPassword(password).catch((error: unknown) => fail('hash', error)),
      verify: (password: string, encoded: string) => verifyPassword(password, encoded).catch((error: unknown) => fail('verify', error)),
    },
  };
}
