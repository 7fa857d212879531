/**
 * What a failed no-JS form post gives back to its page (/login, /forgot-password): the typed email
 * (never the password), so the form keeps it after the 303 redirect. It travels in a short-lived
 * HttpOnly cookie scoped to that page rather than in the URL, which would put an address into access logs and history.
 * (RFC 6265bis cookie attributes; SameSite=Lax like the session cookie.)
 */
const FORM_ECHO_COOKIE = 'wasi_auth_form_email';

/** Enough for one redirect and page load. */
const MAX_AGE_SECONDS = 60;

/** RFC 5321's 254 octets, with room for percent-encoding. */
const MAX_VALUE = 1024;

/** The pages whose forms keep a typed email. */
export type EchoPage = '/login' | '/forgot-password';

function attributes(secure: boolean, page: EchoPage): string {
  return `Path=${page}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` carrying the typed email; undefined when there is nothing worth keeping. */
export function formEchoCookie(email: string | undefined, secure: boolean, page: EchoPage = '/login'): string | undefined {
  if (!email) return undefined;
  const value = encodeURIComponent(email.slice(0, 254));
  return `${FORM_ECHO_COOKIE}=${value}; Max-Age=${MAX_AGE_SECONDS}; ${attributes(secure, page)}`;
}

/** Read once: the page clears it with this. */
export function clearedFormEchoCookie(secure: boolean, page: EchoPage = '/login'): string {
  return `${FORM_ECHO_COOKIE}=; Max-Age=0; ${attributes(secure, page)}`;
}

/** The echoed email from a `Cookie` header, when present. */
export function formEchoFromCookieHeader(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== FORM_ECHO_COOKIE) continue;
    const raw = part.slice(eq + 1).trim();
    if (raw.length === 0 || raw.length > MAX_VALUE) return undefined;
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
