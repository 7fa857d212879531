/**
 * Attempt limits, shared by every host through key-value counters with a TTL (fixed windows, so
 * the number of stored entries is bounded by the clients active in one window):
 *
 * - Password guesses per (email, client address) pair: an attempt is *reserved* with an atomic
 *   increment before the password hash is verified, so a burst of concurrent guesses gets at most
 *   `loginMaxFailures` verifications. Past that the pair is locked for the lockout window (429 with
 *   Retry-After), even for the right password. Another address is not locked: a stranger cannot
 *   lock an owner out (OWASP Authentication Cheat Sheet, "account lockout" as a DoS). A success
 *   clears the pair's count.
 * - Per client address: login, registration and OAuth start attempts per minute, all emails.
 * - Per account, whatever the address: account-budget.ts.
 *
 * A client address is counted under its clientKey (IPv4 /32, IPv6 /64); a browser with the
 * account's device cookie has its (email, device) pair instead of (email, address).
 * - Global: registrations and OAuth starts (which write records) per minute, all clients.
 *
 * Unknown emails are counted like known ones, so the limits reveal nothing about accounts.
 * Keys are hashes or fixed names; an email never appears in a key.
 */
import { RateLimitedError } from '../../errors.ts';
import { clientKey } from '../../contract/client-key.ts';
import type { AuthDeps } from './deps.ts';
import { sha256Hex } from './secrets.ts';
import { authNamespaces } from './streams.ts';

const MINUTE_MS = 60_000;

/** What a throttle counts: `login` and `register` attempts, OAuth `start`s. */
export type ThrottledAction = 'login' | 'register' | 'start';

/** The key of one (email, client address) pair. */
export function loginPairKey(emailHash: string, client: string): Promise<string> {
  return sha256Hex(`${emailHash}\n${client}`);
}

/**
 * Reserves one password verification for the pair before the KDF runs, or throws
 * RateLimitedError. Atomic: the increment is the reservation.
 */
export function reserveLoginAttempt(deps: AuthDeps, pairKey: string): void {
  const { keyValue, now } = deps.platform;
  const until = Number(keyValue.get(authNamespaces.loginLock, pairKey) ?? 0);
  if (until - now() > 0) throw new RateLimitedError((until - now()) / 1000);
  const windowMs = deps.config.loginLockoutSeconds * 1000;
  const attempts = keyValue.increment(authNamespaces.loginFailures, pairKey, 1n, BigInt(windowMs));
  if (attempts > BigInt(deps.config.loginMaxFailures)) {
    keyValue.set(authNamespaces.loginLock, pairKey, String(now() + windowMs), BigInt(windowMs));
    keyValue.delete(authNamespaces.loginFailures, pairKey);
    throw new RateLimitedError(windowMs / 1000);
  }
}

/** After a successful login: the pair starts afresh. */
export function clearLoginAttempts(deps: AuthDeps, pairKey: string): void {
  deps.platform.keyValue.delete(authNamespaces.loginFailures, pairKey);
}

function countInWindow(deps: AuthDeps, key: string, limit: number): void {
  const windowStart = Math.floor(deps.platform.now() / MINUTE_MS) * MINUTE_MS;
  const count = deps.platform.keyValue.increment(authNamespaces.throttle, `${key}:${windowStart}`, 1n, BigInt(MINUTE_MS * 2));
  if (count > BigInt(limit)) throw new RateLimitedError((windowStart + MINUTE_MS - deps.platform.now()) / 1000);
}

/**
 * Counts one attempt of `action` by `client` (per-client budget, and for the writing actions the
 * global budget); throws RateLimitedError past either. Runs before any hashing or writing.
 */
export async function throttle(deps: AuthDeps, action: ThrottledAction, client: string): Promise<void> {
  countInWindow(deps, `client:${await sha256Hex(clientKey(client))}`, deps.config.clientMaxAttemptsPerMinute);
  if (action !== 'login') countInWindow(deps, 'global', deps.config.globalMaxSignupsPerMinute);
}
