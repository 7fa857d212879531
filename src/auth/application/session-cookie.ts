/**
 * The session cookie `wasi_auth_dev_session`: an opaque random id, `HttpOnly; SameSite=Lax;
 * Path=/`. When cookies are Secure (by default on an https public base, ../secure-cookies.ts) it
 * is `__Host-wasi_auth_dev_session` with `Secure`: the prefix (RFC 6265bis §4.1.3.2) means no
 * sibling subdomain or plain-http page can plant or shadow it. Max-Age follows the session's
 * expiry. (Lax keeps the cookie off cross-site subrequests and POSTs.)
 */
export const SESSION_COOKIE = 'wasi_auth_dev_session';

/** The cookie's name in this cookie mode. */
export const sessionCookieName = (secure: boolean): string => (secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

/** The id is base64url of 32 bytes: 43 characters of [A-Za-z0-9_-]. Anything else is ignored. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

function attributes(secure: boolean): string {
  return `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function sessionCookie(sessionId: string, maxAgeSeconds: number, secure: boolean): string {
  return `${sessionCookieName(secure)}=${sessionId}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes(secure)}`;
}

/** Tells the browser to drop the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(secure)}`;
}

/** The value of cookie `name` in a `Cookie` header, when present and matching `shape`. */
export function cookieFromHeader(header: string | null | undefined, name: string, shape: RegExp): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (shape.test(value)) return value;
  }
  return undefined;
}

/** The session id from a `Cookie` header, when present (under this mode's name) and well-formed. */
export function sessionIdFromCookieHeader(header: string | null | undefined, secure: boolean): string | undefined {
  return cookieFromHeader(header, sessionCookieName(secure), SESSION_ID);
}
