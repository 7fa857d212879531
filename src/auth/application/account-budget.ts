/**
 * The account-wide password budget: online guessing against one account is slowed down however
 * many client addresses it comes from (NIST SP 800-63B §5.2.2, rate limiting; OWASP
 * Authentication Cheat Sheet, "Protect against automated attacks"). Per (email, address) locks
 * (rate-limit.ts) stop one address; this stops the sum of them.
 *
 * Within a window of `AUTH_LOGIN_LOCKOUT_SECONDS` (fixed windows, like the throttles) an
 * account gets `AUTH_LOGIN_MAX_FAILURES` password verifications freely. After that it is never
 * locked, only slowed: the next verification waits 2 s after the previous one started, then 4 s,
 * 8 s … doubling with each further failure up to the window itself, and at most one runs at a
 * time. A refused attempt answers 429 with Retry-After and runs no KDF. A browser that signed in
 * to the account before carries a device cookie (device-cookie.ts) and skips this budget, so an
 * attacker cannot lock the owner out through it (NIST: avoid lockouts an attacker can trigger).
 *
 * Everything is in key-value (shared by every host; entries expire with the window):
 * `auth-account-started` and `auth-account-released` count verifications started and those given
 * back (succeeded, or refused by the pair's lock), `auth-account-last` when the latest one started, `auth-account-turn` makes the slowed verifications one at a time.
 * Keys are email hashes, never emails.
 */
import { RateLimitedError } from '../../errors.ts';
import type { AuthDeps } from './deps.ts';
import { addressCounterKey } from './secrets.ts';
import { authNamespaces } from './streams.ts';

const FIRST_DELAY_MS = 2_000;
/** A verification takes well under a second; a host that died holding a turn frees it after this. */
const TURN_HOLD_MS = 30_000;

/** A reserved verification: give it back with `releaseAccountAttempt` when it succeeded or did not run. */
export interface AccountReservation {
  /** the account's counters in this window */
  key: string;
  /** the turn key held, when the verification was a slowed one */
  turn: string | undefined;
}

/** How long after the previous verification the next may start, with `attempts` counted. */
export function accountDelayMs(deps: AuthDeps, attempts: number): number {
  const over = attempts - deps.config.loginMaxFailures;
  if (over < 0) return 0;
  return Math.min(FIRST_DELAY_MS * 2 ** Math.min(over, 30), deps.config.loginLockoutSeconds * 1000);
}

/**
 * The counters: verifications started and given back, in fixed windows. (Two counters that only
 * grow, not one going up and down: a key-value increment takes no negative delta in the guest.)
 */
function counters(deps: AuthDeps, emailHash: string) {
  const { keyValue, now } = deps.platform;
  const windowMs = deps.config.loginLockoutSeconds * 1000;
  const key = `${addressCounterKey('account-budget', emailHash)}:${Math.floor(now() / windowMs)}`;
  const ttl = BigInt(windowMs);
  const read = (namespace: string) => Number(keyValue.get(namespace, key) ?? 0);
  return {
    key,
    ttl,
    attempts: () => Math.max(0, read(authNamespaces.accountStarted) - read(authNamespaces.accountReleased)),
    start: () => Number(keyValue.increment(authNamespaces.accountStarted, key, 1n, ttl)) - read(authNamespaces.accountReleased),
    release: () => void keyValue.increment(authNamespaces.accountReleased, key, 1n, ttl),
  };
}

/** Reserves one password verification for the account, before the KDF runs, or throws RateLimitedError. */
export function reserveAccountAttempt(deps: AuthDeps, emailHash: string): AccountReservation {
  const { keyValue, now } = deps.platform;
  const free = deps.config.loginMaxFailures;
  const count = counters(deps, emailHash);
  const attempts = count.attempts();
  if (attempts < free) {
    // The increment is the reservation: of a concurrent burst, only the free ones pass.
    if (count.start() <= free) {
      keyValue.set(authNamespaces.accountLast, count.key, String(now()), count.ttl);
      return { key: count.key, turn: undefined };
    }
    count.release();
    throw new RateLimitedError(accountDelayMs(deps, free) / 1000);
  }
  const last = Number(keyValue.get(authNamespaces.accountLast, count.key) ?? 0);
  const wait = last + accountDelayMs(deps, attempts) - now();
  if (wait > 0) throw new RateLimitedError(wait / 1000);
  // One slowed verification per attempt count: whoever takes the turn first runs it.
  const turn = `${count.key}:${attempts}`;
  if (keyValue.increment(authNamespaces.accountTurn, turn, 1n, BigInt(TURN_HOLD_MS)) !== 1n) throw new RateLimitedError(1);
  // `last` before the count: whoever reads the new count also reads the new start time.
  keyValue.set(authNamespaces.accountLast, count.key, String(now()), count.ttl);
  count.start();
  return { key: count.key, turn };
}

/** The reserved verification succeeded (or never ran): it does not count against the account. */
export function releaseAccountAttempt(deps: AuthDeps, reservation: AccountReservation): void {
  const { keyValue } = deps.platform;
  keyValue.increment(authNamespaces.accountReleased, reservation.key, 1n, BigInt(deps.config.loginLockoutSeconds * 1000));
  if (reservation.turn) keyValue.delete(authNamespaces.accountTurn, reservation.turn);
}
