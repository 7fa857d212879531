/**
 * The device cookie: a browser that signed in to an account with its password before is known
 * again, and skips the account-wide delay (account-budget.ts) that guessing from elsewhere may
 * have set on that account; it keeps a per-device limit of its own (rate-limit.ts). This is the
 * "device cookie" defence of the OWASP Authentication Cheat Sheet (slow down online guessing
 * without locking the owner out); NIST SP 800-63B §5.2.2 allows such exemptions for known devices.
 *
 * Value `<device id>.<mac>`: 16 random bytes and HMAC-SHA256(server key, "device" ‖ email hash ‖
 * device id), both base64url. The MAC binds it to the account (the hash of its normalized
 * email): it opens nothing by itself, and a cookie of one account is worthless for another.
 * `HttpOnly`, `SameSite=Strict`, `Path=/api/auth/password/login` (only the login reads it),
 * 180 days; `__Secure-` and `Secure` when cookies are Secure (../secure-cookies.ts). A browser
 * holds one, for the account it signed in to last.
 *
 * The server key: 32 random bytes in key-value (`auth-device-key`, no expiry), made by the first
 * host that needs it. Two hosts making it at the same moment both store one and then read back
 * the one that stayed; a cookie signed with the other in between is merely not recognized (that
 * browser gets the account-wide delay like any other until it signs in again). Whoever can read
 * the key-value store can mint device cookies, which lifts the delay but still needs the password.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Platform } from '../../platform/ports.ts';
import { timingSafeEqual } from '../oauth/random-tokens.ts';
import type { AuthDeps } from './deps.ts';
import { base64url, randomToken } from './secrets.ts';
import { cookieFromHeader } from './session-cookie.ts';
import { authNamespaces } from './streams.ts';

const LOCAL_NAME = 'wasi_auth_device';
const SECURE_NAME = '__Secure-wasi_auth_device';
export const DEVICE_COOKIE_PATH = '/api/auth/password/login';
const MAX_AGE_SECONDS = 180 * 86_400;
const VALUE = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;
const KEY_NAME = 'hmac-sha256';
const encoder = new TextEncoder();

/** Per platform (every unit test has its own), read once per instance. */
const keys = new WeakMap<Platform, Uint8Array>();

function serverKey(platform: Platform): Uint8Array {
  let key = keys.get(platform);
  if (key) return key;
  let stored = platform.keyValue.get(authNamespaces.deviceKey, KEY_NAME);
  if (stored === undefined) {
    platform.keyValue.set(authNamespaces.deviceKey, KEY_NAME, randomToken(32), undefined);
    stored = platform.keyValue.get(authNamespaces.deviceKey, KEY_NAME)!;
  }
  key = encoder.encode(stored);
  keys.set(platform, key);
  return key;
}

const mac = (platform: Platform, emailHash: string, deviceId: string): string =>
  base64url(hmac(sha256, serverKey(platform), encoder.encode(`device\u0000${emailHash}\u0000${deviceId}`)));

export const deviceCookieName = (secure: boolean): string => (secure ? SECURE_NAME : LOCAL_NAME);

/** The device cookie's value from a `Cookie` header, when present and well-formed. */
export const deviceCookieFromHeader = (header: string | null | undefined, secure: boolean): string | undefined => cookieFromHeader(header, deviceCookieName(secure), VALUE);

/** The device id when `value` is a device cookie this service signed for this account, else undefined. */
export function knownDevice(deps: AuthDeps, value: string | undefined, emailHash: string): string | undefined {
  if (value === undefined || !VALUE.test(value)) return undefined;
  const [deviceId, signature] = value.split('.') as [string, string];
  return timingSafeEqual(signature, mac(deps.platform, emailHash, deviceId)) ? deviceId : undefined;
}

/** Set-Cookie for the device cookie of `emailHash`'s account, keeping the browser's device id when it has one. */
export function deviceSetCookie(deps: AuthDeps, emailHash: string, deviceId: string | undefined): string {
  const id = deviceId ?? randomToken(16);
  const secure = deps.config.cookieSecure;
  const attributes = `Max-Age=${MAX_AGE_SECONDS}; Path=${DEVICE_COOKIE_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return `${deviceCookieName(secure)}=${id}.${mac(deps.platform, emailHash, id)}; ${attributes}`;
}
