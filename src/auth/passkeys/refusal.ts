/**
 * How a refused ceremony answers: always 401 `invalid_credentials` with one message, so a caller
 * learns nothing about which check failed (an unknown credential, a wrong origin or a used
 * challenge look alike); the reason goes to the log (`auth_passkey_refused`), never a secret.
 */
import { AppError } from '../../errors.ts';
import type { AuthDeps } from '../application/deps.ts';

export const PASSKEY_REFUSED = 'the passkey was not accepted';

export function refused(deps: AuthDeps, reason: unknown): AppError {
  // The library quotes the values it compared; a quoted challenge (base64url) is left out.
  const text = reason instanceof Error ? reason.message.replace(/"[A-Za-z0-9_-]{16,}"/g, '"…"').slice(0, 200) : 'not verified';
  deps.platform.logger.log('info', 'passkey response refused', { code: 'auth_passkey_refused', reason: text });
  return new AppError('invalid_credentials', PASSKEY_REFUSED);
}
