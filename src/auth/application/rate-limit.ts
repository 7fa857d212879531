/**
 * Failed-login limiting per email (hashed), shared by every host through key-value: after
 * `loginMaxFailures` failures within the lockout window the email is locked for that window,
 * even for the right password. The lock stores its end time, which gives `Retry-After`.
 * Unknown emails are counted the same way, so the limit reveals nothing about accounts.
 */
import { RateLimitedError } from '../../errors.ts';
import type { AuthDeps } from './deps.ts';
import { authNamespaces } from './streams.ts';

export function assertNotLocked(deps: AuthDeps, emailHash: string): void {
  const until = Number(deps.platform.keyValue.get(authNamespaces.loginLock, emailHash) ?? 0);
  const remainingMs = until - deps.platform.now();
  if (remainingMs > 0) throw new RateLimitedError(remainingMs / 1000);
}

export function recordLoginFailure(deps: AuthDeps, emailHash: string): void {
  const { keyValue, now } = deps.platform;
  const windowMs = BigInt(deps.config.loginLockoutSeconds * 1000);
  const failures = keyValue.increment(authNamespaces.loginFailures, emailHash, 1n, windowMs);
  if (failures >= BigInt(deps.config.loginMaxFailures)) {
    keyValue.set(authNamespaces.loginLock, emailHash, String(now() + Number(windowMs)), windowMs);
    keyValue.delete(authNamespaces.loginFailures, emailHash);
  }
}

export function clearLoginFailures(deps: AuthDeps, emailHash: string): void {
  deps.platform.keyValue.delete(authNamespaces.loginFailures, emailHash);
}
