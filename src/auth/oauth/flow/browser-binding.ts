/**
 * Binds an OAuth sign-in to the browser that started it (RFC 9700 §4.7 "login CSRF", §2.1 and
 * RFC 7636 §1): without it, the callback URL of an attacker's own sign-in signs a victim's browser
 * into the attacker's account (session swapping).
 *
 * `/start` gives the browser a random, HttpOnly, short-lived cookie (`__Host-wasi_oauth_binding`
 * on https, `wasi_oauth_binding` on local http) and stores only its SHA-256 with the state. The
 * callback must present the cookie whose hash matches, or it is refused before the state is
 * consumed (the right browser can still finish).
 *
 * The nonce and PKCE verifier are not stored at all: both are HMAC-SHA256(cookie, label ‖ state),
 * recomputed at the callback. They keep the 256-bit entropy RFC 7636 §7.1 asks for (the HMAC key
 * is 32 random bytes the store never sees), a store dump reveals neither, and a callback from
 * another browser could not complete the PKCE exchange even if the hash check were gone.
 *
 * SameSite: provider_c answers with `response_mode=form_post`, a cross-site POST. On https the
 * cookie is `SameSite=None; Secure` so that POST carries it. Browsers refuse `SameSite=None`
 * without `Secure`, so on local http the cookie is `SameSite=Lax`: a provider on the same site
 * (127.0.0.1 or localhost on another port, as the test provider) still works, while a real
 * cross-site form_post over http arrives without the cookie and is refused with
 * `oauth_browser_mismatch`: use an https base (or the development bypass) for such providers.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64url } from 'jose';
import { randomToken, sha256Hex } from '../random-tokens.ts';
import { OAUTH_STATE_TTL_MS } from './state-records.ts';

const SECURE_NAME = '__Host-wasi_oauth_binding';
const LOCAL_NAME = 'wasi_oauth_binding';
/** base64url of 32 bytes; anything else in the cookie counts as no binding. */
const VALUE = /^[A-Za-z0-9_-]{43}$/;
const encoder = new TextEncoder();

/** The cookie's name: `__Host-` (RFC 6265bis §4.1.3.2: Secure, Path=/, no Domain) when Secure. */
export const bindingCookieName = (secure: boolean): string => (secure ? SECURE_NAME : LOCAL_NAME);

/** The binding value from the cookie, when present and well-formed. */
export function bindingFromCookie(value: string | undefined): string | undefined {
  return value !== undefined && VALUE.test(value) ? value : undefined;
}

/** A fresh binding value (or the browser's current one, so two tabs signing in both succeed). */
export const newBindingValue = (current: string | undefined): string => current ?? randomToken();

/** What the state record keeps: the hex SHA-256 of the cookie value. */
export const bindingHash = (value: string): string => sha256Hex(value);

/** Set-Cookie for the binding; lives as long as a state does. */
export function bindingSetCookie(value: string, secure: boolean): string {
  const sameSite = secure ? 'SameSite=None; Secure' : 'SameSite=Lax';
  return `${bindingCookieName(secure)}=${value}; Max-Age=${Math.floor(OAUTH_STATE_TTL_MS / 1000)}; Path=/; HttpOnly; ${sameSite}`;
}

/** The nonce and PKCE verifier of one sign-in, derived from the binding and the state. */
export function flowSecrets(binding: string, state: string): { nonce: string; codeVerifier: string } {
  const derive = (label: string) => base64url.encode(hmac(sha256, encoder.encode(binding), encoder.encode(`${label}\u0000${state}`)));
  // base64url of 32 bytes: 43 characters of the unreserved set, as RFC 7636 §4.1 requires.
  return { nonce: derive('oidc-nonce'), codeVerifier: derive('pkce-code-verifier') };
}
