/**
 * The session cookie `wasi_auth_dev_session`: an opaque random id, `HttpOnly; SameSite=Lax;
 * Path=/`, plus `Secure` when AUTH_COOKIE_SECURE=true. Max-Age follows the session's expiry.
 * (RFC 6265bis; Lax keeps the cookie off cross-site subrequests and POSTs.)
 */
export const SESSION_COOKIE = 'wasi_auth_dev_session';

/** The id is base64url of 32 bytes: 43 characters of [A-Za-z0-9_-]. Anything else is ignored. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

function attributes(secure: boolean): string {
  return `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function sessionCookie(sessionId: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${sessionId}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes(secure)}`;
}

/** Tells the browser to drop the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(secure)}`;
}

/** The session id from a `Cookie` header, when present and well-formed. */
export function sessionIdFromCookieHeader(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (SESSION_ID.test(value)) return value;
  }
  return undefined;
}
